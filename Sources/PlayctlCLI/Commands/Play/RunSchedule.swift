import Foundation
import Locking
import Playback

/// `play`'s scheduled actions on one timeline: seconds since playback started, on the player's clock (real time
/// under the host clock, virtual under --untimed). Each action runs once, in time order (actions at the same time
/// in the order they were added), when the clock reaches its time, wherever the media time is (a seek that jumps
/// past a time does not skip what is scheduled then).
///
/// Under --untimed the clock is read at every frame (a periodic time observer on the callback executor, which the
/// untimed clock waits for: the same run every time); under the host clock a thread of its own looks every 5 ms, so
/// a stall or a pause does not hold the schedule. Ties with the item's end are the engine's: the observers due at
/// the end instant run, and the untimed clock waits for them, before the end is reported, so an action at that
/// instant runs (a seek there is applied). Once the item ended or failed (seen on the callback executor, in the
/// order of the events), nothing more runs: the run is ending.
final class RunSchedule: Sendable {
    private struct Action {
        let at: Double
        let order: Int
        let run: @Sendable () -> Void
    }

    private let actions = Locked<[Action]>([])
    private let start = Locked<Double?>(nil)
    private let stopped = Locked(false)

    /// Adds `run` at `at` seconds after playback starts.
    func add(at: Double, _ run: @escaping @Sendable () -> Void) {
        actions.withLock { actions in
            actions.append(Action(at: at, order: actions.count, run: run))
            actions.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        }
    }

    var isEmpty: Bool { actions.withLock { $0.isEmpty } }

    /// Starts the timeline now (call right after `play()`), following `player`'s clock.
    func start(following player: Player, untimed: Bool) {
        let origin = player.clockTime
        start.withLock { $0 = origin }
        player.observeEvents { [self] event in
            switch event.kind {
            case .didPlayToEnd, .failedToPlayToEnd, .itemStatus(.failed, _, _): stop()
            default: break
            }
        }
        if untimed {
            _ = player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 240)) { [weak player] _ in
                guard let player else { return }
                self.fire(at: player.clockTime)
            }
        } else {
            let thread = Thread { [weak player] in
                while !self.stopped.withLock({ $0 }), !self.isEmpty, let player {
                    self.fire(at: player.clockTime)
                    usleep(5_000)
                }
            }
            thread.name = "playctl.schedule"
            thread.start()
        }
    }

    /// Runs what is due at clock time `now`.
    func fire(at now: Double) {
        guard !stopped.withLock({ $0 }), let origin = start.withLock({ $0 }) else { return }
        let due = actions.withLock { actions -> [Action] in
            let due = actions.prefix { $0.at <= now - origin + 1e-9 }
            actions.removeFirst(due.count)
            return Array(due)
        }
        for action in due { action.run() }
    }

    func stop() { stopped.withLock { $0 = true } }
}
