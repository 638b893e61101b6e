/// Identifies one seek request. Ids increase in request order and are never reused by a machine.
public struct SeekID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: SeekID, rhs: SeekID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "seek#\(rawValue)" }
}

/// Seek requests with AVPlayer's "latest wins" rule, as a pure state machine.
///
/// At most one seek is in flight. A new request completes the one in flight at once with
/// `finished == false` (as `AVPlayer.seek(to:completionHandler:)` does) and starts itself. Every id this
/// machine hands out is completed exactly once, by exactly one `.complete` action, and completions come
/// out in request order.
///
/// The driver clamps targets to the item's range before requesting; the machine passes them through.
public struct SeekStateMachine: Sendable {
    /// Something the driver must do after feeding an input to a ``SeekStateMachine``.
    public enum Action: Equatable, Sendable, CustomStringConvertible {
        /// Call the completion handler of seek `id` with `finished`.
        case complete(SeekID, finished: Bool)
        /// Make the demuxer and decoders seek to `target`: to the exact frame if `exact`, else to the
        /// nearest earlier sync frame. Report the result with `decoderLanded(_:at:)` or `failed(_:)`.
        case startSeek(SeekID, target: MediaTime, exact: Bool)

        public var description: String {
            switch self {
            case .complete(let id, let finished): return "complete(\(id), finished: \(finished))"
            case .startSeek(let id, let target, let exact):
                return "startSeek(\(id), target: \(target), exact: \(exact))"
            }
        }
    }

    private struct InFlight: Sendable {
        let id: SeekID
        let target: MediaTime
    }

    private var inFlight: InFlight?
    private var lastIssued: UInt64 = 0

    /// Where the most recent successful seek landed (as reported by the decoder); nil before any.
    public private(set) var lastLandedTime: MediaTime?

    /// An idle machine; the first request gets id 1.
    public init() {}

    /// The target of the seek in flight, or nil when none is. While non-nil, the player's current time
    /// should report this target, from the moment of the request until the seek completes.
    public var pendingTarget: MediaTime? { inFlight?.target }

    /// The seek in flight, or nil.
    public var currentSeek: SeekID? { inFlight?.id }

    /// Whether a seek is in flight.
    public var isSeeking: Bool { inFlight != nil }

    /// Requests a seek to `target`. Returns its new id and the actions: `.complete(old, finished: false)` for
    /// the seek in flight, if any, then `.startSeek(id, target:exact:)`.
    /// A target that is not numeric (invalid, indefinite, infinite) still supersedes the seek in flight, but
    /// completes itself at once with `finished == false` instead of starting.
    public mutating func request(target: MediaTime, exact: Bool) -> (id: SeekID, actions: [Action]) {
        lastIssued += 1
        let id = SeekID(rawValue: lastIssued)
        var actions = cancelPendingSeeks()
        if target.isNumeric {
            inFlight = InFlight(id: id, target: target)
            actions.append(.startSeek(id, target: target, exact: exact))
        } else {
            actions.append(.complete(id, finished: false))
        }
        return (id, actions)
    }

    /// The decoder reached the target of seek `id` and shows the frame at `time`. Completes the seek with
    /// `finished == true` if it is the one in flight; a stale id (already completed) or an unknown one is
    /// ignored: no actions.
    public mutating func decoderLanded(_ id: SeekID, at time: MediaTime) -> [Action] {
        guard let current = inFlight, current.id == id else { return [] }
        inFlight = nil
        lastLandedTime = time
        return [.complete(id, finished: true)]
    }

    /// Seek `id` could not be performed. Completes it with `finished == false` if it is the one in flight;
    /// stale or unknown ids are ignored.
    public mutating func failed(_ id: SeekID) -> [Action] {
        guard let current = inFlight, current.id == id else { return [] }
        inFlight = nil
        return [.complete(id, finished: false)]
    }

    /// Like `AVPlayerItem.cancelPendingSeeks()`: completes the seek in flight, if any, with
    /// `finished == false`. The decoder may still land; that landing is then stale and ignored.
    public mutating func cancelPendingSeeks() -> [Action] {
        guard let current = inFlight else { return [] }
        inFlight = nil
        return [.complete(current.id, finished: false)]
    }
}
