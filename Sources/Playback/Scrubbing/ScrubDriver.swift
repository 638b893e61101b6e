import Dispatch
import Locking

/// Performs a `ScrubbingMachine`'s actions on a player: its state and figures behind one lock, seeks asked outside
/// it, their completions (on the player's callback executor) fed back in.
final class ScrubDriver: Sendable {
    private struct State {
        var machine = ScrubbingMachine()
        var statistics = ScrubStatistics()
        var began: UInt64 = 0
        var ended: UInt64 = 0
        /// The rate before the drag, restored when it ends.
        var rate: Float = 0
        var waiters: [CheckedContinuation<ScrubStatistics, Never>] = []
    }

    private let state = Locked(State())

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    var isScrubbing: Bool { state.withLock { $0.machine.isScrubbing } }

    func begin(_ player: Player) {
        let rate = player.rate
        let began = state.withLock { state -> Bool in
            guard !state.machine.isScrubbing else { return false }
            _ = state.machine.begin()
            state.statistics = ScrubStatistics()
            state.began = Self.now()
            state.rate = rate
            return true
        }
        if began { player.pause() }
    }

    func scrub(_ player: Player, to time: MediaTime) {
        let action = state.withLock { state -> ScrubbingMachine.Action in
            if state.machine.isScrubbing { state.statistics.positions += 1 }
            return state.machine.scrub(to: time)
        }
        perform(action, on: player)
    }

    func end(_ player: Player) async -> ScrubStatistics {
        await withCheckedContinuation { continuation in
            let action = state.withLock { state -> ScrubbingMachine.Action in
                guard state.machine.isScrubbing else { return .finished }
                state.waiters.append(continuation)
                state.ended = Self.now()
                return state.machine.end()
            }
            if action == .finished, state.withLock({ $0.waiters.isEmpty }) {
                // Not scrubbing: nothing to wait for.
                continuation.resume(returning: state.withLock { $0.statistics })
            } else {
                perform(action, on: player)
            }
        }
    }

    private func perform(_ action: ScrubbingMachine.Action, on player: Player) {
        switch action {
        case .none:
            return
        case .seekKeyframe(let time):
            state.withLock { $0.statistics.keyframeSeeks += 1 }
            player.seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity) {
                [weak player] finished in
                guard let player else { return }
                self.completed(keyframe: true, landed: finished, player: player)
            }
        case .seekExact(let time):
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { [weak player] finished in
                guard let player else { return }
                self.completed(keyframe: false, landed: finished, player: player)
            }
        case .finished:
            let (statistics, waiters, rate) = state.withLock { state in
                defer { state.waiters = [] }
                return (state.statistics, state.waiters, state.rate)
            }
            if rate != 0 { player.rate = rate }
            for waiter in waiters { waiter.resume(returning: statistics) }
        }
    }

    private func completed(keyframe: Bool, landed: Bool, player: Player) {
        let landedTime = landed && !keyframe ? player.currentTime() : nil
        let action = state.withLock { state -> ScrubbingMachine.Action in
            let seconds = Double(Self.now() - state.began) / 1e9
            if keyframe && landed {
                state.statistics.framesShown += 1
                if state.statistics.firstFrameLatency == nil { state.statistics.firstFrameLatency = seconds }
            }
            if !keyframe {
                state.statistics.exactLatency = Double(Self.now() - state.ended) / 1e9
                state.statistics.landedTime = landedTime
            }
            return state.machine.seekCompleted()
        }
        perform(action, on: player)
    }
}
