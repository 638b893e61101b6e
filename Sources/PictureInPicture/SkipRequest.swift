/// Identifies one skip (seek) request from the Picture in Picture window.
///
/// Identifiers are unique for the lifetime of a state machine and strictly
/// increasing. The machine emits each one in exactly one
/// ``PictureInPictureAction/seek(_:)`` action, so the driver completes each
/// request exactly once.
public struct SkipRequestID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The request number; the first request of a machine is 1.
    public let rawValue: UInt64

    /// Wraps a request number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The identifier that follows this one.
    public var next: SkipRequestID { SkipRequestID(rawValue: rawValue &+ 1) }

    /// Orders identifiers by creation.
    public static func < (lhs: SkipRequestID, rhs: SkipRequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"skip#N"` (a seek of the player is `seek#N`).
    public var description: String { "skip#\(rawValue)" }
}

/// One skip (seek) the Picture in Picture window asked for: the window's
/// skip-forward/skip-back buttons or its scrubber.
///
/// The driver performs it on the player and completes it exactly once,
/// keyed by ``id``. The machine never emits the same ``id`` twice.
public struct SkipRequest: Equatable, Hashable, Sendable {
    /// Unique for the lifetime of the machine.
    public let id: SkipRequestID
    /// The session whose window asked.
    public let session: SessionID
    /// How far to move from the current time; negative skips back.
    public let interval: Duration

    /// Creates a request. Drivers receive these from the machine; creating one
    /// is for tests.
    public init(id: SkipRequestID, session: SessionID, interval: Duration) {
        self.id = id
        self.session = session
        self.interval = interval
    }
}
