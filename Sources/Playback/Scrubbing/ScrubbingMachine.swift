/// Scrubbing as a value (a seek bar being dragged): while the finger moves, keyframe seeks with at most one in
/// flight, the newest position replacing any that waited; when it lifts, the exact frame of the last position at
/// once, superseding a keyframe seek still in flight (the player completes that one first, not finished, or
/// finished if it had landed). Each event returns what the driver must do.
public struct ScrubbingMachine: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case none
        /// Seek to the keyframe at or before this time (what is shown while dragging).
        case seekKeyframe(MediaTime)
        /// Seek exactly to this time (the finger lifted).
        case seekExact(MediaTime)
        /// Scrubbing is over: the exact frame landed (or nothing was asked).
        case finished
    }

    private enum State: Sendable, Equatable {
        case idle
        /// Dragging: whether a keyframe seek is in flight, the position waiting for it, the last position asked.
        case scrubbing(inFlight: Bool, pending: MediaTime?, last: MediaTime?)
        /// Lifted while a keyframe seek was in flight: the exact seek, asked at once, superseded it; its completion
        /// comes first.
        case exactAfterSuperseded
        /// The exact seek is in flight.
        case exact
    }

    private var state = State.idle

    public init() {}

    /// Whether a drag is going on (from `begin()` until the exact frame landed).
    public var isScrubbing: Bool { state != .idle }

    /// The finger touched the bar. Nothing to do (a second begin while scrubbing changes nothing).
    public mutating func begin() -> Action {
        if state == .idle { state = .scrubbing(inFlight: false, pending: nil, last: nil) }
        return .none
    }

    /// The finger is at `time`: a keyframe seek there when none is in flight, otherwise it waits (replacing the
    /// one that waited). Ignored when not dragging.
    public mutating func scrub(to time: MediaTime) -> Action {
        guard case .scrubbing(let inFlight, _, _) = state else { return .none }
        if inFlight {
            state = .scrubbing(inFlight: true, pending: time, last: time)
            return .none
        }
        state = .scrubbing(inFlight: true, pending: nil, last: time)
        return .seekKeyframe(time)
    }

    /// The seek in flight completed (landed or not).
    public mutating func seekCompleted() -> Action {
        switch state {
        case .scrubbing(true, let pending?, let last):
            state = .scrubbing(inFlight: true, pending: nil, last: last)
            return .seekKeyframe(pending)
        case .scrubbing(true, nil, let last):
            state = .scrubbing(inFlight: false, pending: nil, last: last)
            return .none
        case .exactAfterSuperseded:
            state = .exact
            return .none
        case .exact:
            state = .idle
            return .finished
        case .idle, .scrubbing(false, _, _):
            return .none
        }
    }

    /// The finger lifted: the exact frame of the last position, at once (a keyframe seek still in flight is
    /// superseded: waiting for it made the landing a keyframe decode later than a plain exact seek).
    public mutating func end() -> Action {
        guard case .scrubbing(let inFlight, _, let last) = state else { return .none }
        guard let last else {
            state = .idle
            return .finished
        }
        state = inFlight ? .exactAfterSuperseded : .exact
        return .seekExact(last)
    }
}
