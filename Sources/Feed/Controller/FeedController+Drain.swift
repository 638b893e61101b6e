import Loading
import Playback

/// The driver's loop: inputs are queued, and one thread at a time drains them, deciding each under the lock and
/// doing its work after releasing it, in order.
extension FeedController {
    /// Queues `input`; the thread that finds nobody draining handles the queue: each input is decided under the
    /// lock and its work done after releasing it, before the next input (one drainer at a time, in order). An input
    /// that comes meanwhile, from another thread or from the work itself (a player's callback), waits its turn.
    func handle(_ input: FeedState.Input) {
        if state.withLock({ $0.enqueue(input) }) { drain() }
    }

    /// Handles the queued inputs until there are none.
    private func drain() {
        while true {
            let next = state.withLock { state -> (FeedState.Input?, Int?, [CheckedContinuation<Void, Never>]) in
                if let input = state.nextInput() { return (input, state.planner.active, []) }
                defer { state.drainWaiters = [] }
                return (nil, nil, state.drainWaiters)
            }
            guard let input = next.0 else {
                for waiter in next.2 { waiter.resume() }
                return
            }
            let facts = readFacts(active: next.1)
            let now = self.now
            let work = state.withLock { $0.step(input, at: now, facts: facts) }
            perform(work)
        }
    }

    /// Returns once nobody is draining the inputs (those queued before the call are handled).
    func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.draining else { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Reads what the decisions need of each item's player, the playhead of the `active` item's only (their locks;
    /// never with the feed's held).
    func readFacts(active: Int?) -> [Int: ItemFacts] {
        let loaded = driver.withLock { $0.loaded }
        return Dictionary(
            uniqueKeysWithValues: loaded.map { index, loaded in
                (index, ItemFacts(reading: loaded.item, playhead: index == active))
            })
    }

    /// Under a manual clock, after the players and the link: how prefetches ended, then the events.
    func clockDidAdvance() async {
        let running = driver.withLock { $0.prefetches }
        let ended = running.compactMap { id, prefetch -> (Int, UInt64, Result<Void, MediaError>)? in
            prefetch.task.result.map { (prefetch.index, id, $0) }
        }
        for (index, id, result) in ended.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            handle(.prefetchEnded(index: index, id: id, result: result))
        }
        await drained()
        await executor.drain()
    }

    /// A prefetch's completion handler (host clock): the same input.
    func prefetchCompleted(id: UInt64) {
        guard clock.manualClock == nil, let prefetch = driver.withLock({ $0.prefetches[id] }),
            let result = prefetch.task.result
        else { return }
        handle(.prefetchEnded(index: prefetch.index, id: id, result: result))
    }

    func playerEvent(_ event: PlayerEvent, playerIndex: Int) {
        handle(.player(player: playerIndex, event: event))
    }
}
