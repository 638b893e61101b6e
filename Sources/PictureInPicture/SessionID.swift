/// Identifies one Picture in Picture session: one `willStart` and everything
/// up to its `didStop` or `failedToStart`.
///
/// The state machine hands out strictly increasing identifiers (a generation
/// counter) and puts the identifier in every window action. Host callbacks
/// carry it back, so a callback meant for a session that has already ended
/// or been abandoned (a *stale* callback) is recognised and ignored.
public struct SessionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The generation number; the first session of a machine is 1.
    public let rawValue: UInt64

    /// Wraps a generation number. Drivers normally only echo identifiers they
    /// received; creating one is for tests and persistence.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The identifier that follows this one.
    public var next: SessionID { SessionID(rawValue: rawValue &+ 1) }

    /// Orders identifiers by generation: a larger one was created later.
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"session#N"`.
    public var description: String { "session#\(rawValue)" }
}
