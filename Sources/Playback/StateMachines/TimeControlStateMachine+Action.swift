extension TimeControlStateMachine {
    /// Something the driver must do after feeding an input to a ``TimeControlStateMachine``.
    ///
    /// The machine returns actions in a fixed order: `emitRate` first, then at most one clock action,
    /// then `emitTimeControlStatus`. So when observers hear `.playing` the clock already runs, and when
    /// they hear `.paused` or `.waitingToPlayAtSpecifiedRate` it is already stopped.
    public enum Action: Equatable, Sendable, CustomStringConvertible {
        /// The rate changed from `previous` to the first value: tell rate observers.
        case emitRate(Float, previous: Float)
        /// The time-control status or the reason for waiting changed: tell observers.
        /// The reason is non-nil exactly when the status is `.waitingToPlayAtSpecifiedRate`.
        case emitTimeControlStatus(TimeControlStatus, WaitingReason?)
        /// The status became `.playing`: start the playback clock at this rate from the current time.
        case startClock(rate: Float)
        /// The rate changed while `.playing`: keep the clock running at the new rate from the current time.
        case setClockRate(Float)
        /// The status left `.playing`: freeze the playback clock at the current time.
        case stopClock
        /// The current item ended with `ActionAtItemEnd.advance`: make the next item current (or none)
        /// and report the result with `itemChanged(hasItem:isReady:likelyToKeepUp:)`.
        case advanceToNextItem

        public var description: String {
            switch self {
            case .emitRate(let rate, let previous): return "emitRate(\(rate), previous: \(previous))"
            case .emitTimeControlStatus(let status, let reason):
                return "emitTimeControlStatus(\(status), \(reason.map(\.rawValue) ?? "nil"))"
            case .startClock(let rate): return "startClock(rate: \(rate))"
            case .setClockRate(let rate): return "setClockRate(\(rate))"
            case .stopClock: return "stopClock"
            case .advanceToNextItem: return "advanceToNextItem"
            }
        }
    }
}
