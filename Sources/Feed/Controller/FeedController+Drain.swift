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
            typealias Next = (
                FeedState.Input?, (items: Set<Int>, playheads: Set<Int>), [CheckedContinuation<Void, Never>]
            )
            let next = state.withLock { state -> Next in
                if let input = state.nextInput() { return (input, state.factsAndPlayheadsNeeded(for: input), []) }
                defer { state.drainWaiters = [] }
                return (nil, ([], []), state.drainWaiters)
            }
            guard let input = next.0 else {
                for waiter in next.2 { waiter.resume() }
                return
            }
            let facts = readFacts(of: next.1.items, playheads: next.1.playheads)
            let now = self.now
            let estimate = configuration.bandwidthEstimate.current
            // The servers with a connection, read where the window moves (the transport's lock, not the feed's).
            let connected = FeedState.movesWindow(input) ? loading.transport.connectedOrigins : nil
            let work = state.withLock {
                $0.step(input, at: now, facts: facts, estimate: estimate, connected: connected)
            }
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

    /// Reads the players of `items` (nil: every item's), the playhead of item `playhead` only (their locks; never
    /// with the feed's held; a playhead is read under its player's engine lock, which the engine thread holds
    /// while it works).
    func readFacts(of items: Set<Int>?, playheads: Set<Int>) -> [Int: ItemFacts] {
        let loaded = driver.withLock { driver in
            items.map { items in driver.loaded.filter { items.contains($0.key) } } ?? driver.loaded
        }
        return Dictionary(
            uniqueKeysWithValues: loaded.map { index, loaded in
                (index, ItemFacts(reading: loaded.item, playhead: playheads.contains(index)))
            })
    }

    /// Under a manual clock, after the players and the link: how prefetches ended, then the events.
    func clockDidAdvance() async {
        await handleGridPlayerEvents()
        let running = driver.withLock { $0.prefetches }
        let ended = running.compactMap { id, prefetch -> (Int, UInt64, Result<Void, MediaError>)? in
            prefetch.task.result.map { (prefetch.index, id, $0) }
        }
        for (index, id, result) in ended.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            handle(.prefetchEnded(index: index, id: id, result: result))
        }
        let sized = driver.withLock { driver in
            defer { driver.sizesAnswered = [] }
            return driver.sizesAnswered
        }
        for answer in sized.sorted(by: { $0.index < $1.index }) {
            handle(.sizeProbed(index: answer.index, answer.result))
        }
        await takePage()
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
        if configuration.layout.isGrid, clock.manualClock != nil {
            pendingPlayerEvents.withLock { $0.append((playerIndex, event)) }
            return
        }
        handle(.player(player: playerIndex, event: event))
    }
}
