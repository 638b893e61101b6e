import Playback
import Testing

typealias TCAction = TimeControlStateMachine.Action

/// Short names for the status actions the tests expect.
extension TimeControlStateMachine.Action {
    static let emitPaused = TCAction.emitTimeControlStatus(.paused, nil)
    static let emitPlaying = TCAction.emitTimeControlStatus(.playing, nil)
    static func emitWaiting(_ reason: WaitingReason) -> TCAction {
        .emitTimeControlStatus(.waitingToPlayAtSpecifiedRate, reason)
    }
}

/// A machine with a ready item whose buffer is likely to keep up, playing at `rate`.
func playingMachine(rate: Float = 1, automaticallyWaits: Bool = true) throws -> TimeControlStateMachine {
    var machine = TimeControlStateMachine(automaticallyWaitsToMinimizeStalling: automaticallyWaits)
    _ = machine.itemChanged(hasItem: true, isReady: true, likelyToKeepUp: true)
    _ = machine.setRate(rate)
    try #require(machine.timeControlStatus == .playing)
    return machine
}

/// A paused machine with a ready item and the given buffer report (none if `likelyToKeepUp` is nil).
func pausedReadyMachine(
    likelyToKeepUp: Bool?, bufferEmpty: Bool = false,
    automaticallyWaits: Bool = true
) -> TimeControlStateMachine {
    var machine = TimeControlStateMachine(automaticallyWaitsToMinimizeStalling: automaticallyWaits)
    _ = machine.itemChanged(hasItem: true, isReady: true)
    if let likelyToKeepUp { _ = machine.bufferChanged(likelyToKeepUp: likelyToKeepUp, bufferEmpty: bufferEmpty) }
    return machine
}

/// Checks the readable state of a machine in one line.
func expectState(
    _ machine: TimeControlStateMachine, rate: Float, _ status: TimeControlStatus,
    _ reason: WaitingReason? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(machine.rate == rate, "rate", sourceLocation: sourceLocation)
    #expect(machine.timeControlStatus == status, "status", sourceLocation: sourceLocation)
    #expect(machine.reasonForWaitingToPlay == reason, "reason", sourceLocation: sourceLocation)
}
