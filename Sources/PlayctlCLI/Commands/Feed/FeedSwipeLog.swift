import Feed
import Locking

/// The swipes of a run and the events of each (the feed's observer and the run's task both use it, under a lock).
/// An event belongs to the last swipe begun before the feed numbered it.
final class FeedSwipeLog: Sendable {
    private struct State {
        var swipes: [FeedSwipe] = []
        var failures: [(index: Int, error: String)] = []
    }

    private let state = Locked(State())

    /// Starts `swipe` (its number taken before the feed scrolls).
    func begin(_ swipe: FeedSwipe) {
        state.withLock { $0.swipes.append(swipe) }
    }

    /// Counts `event` for the swipe it belongs to; failures are kept for the run's end.
    func record(_ event: FeedEvent) {
        state.withLock { state in
            if case .failed(let index, let error) = event.kind { state.failures.append((index, error)) }
            guard let position = state.swipes.lastIndex(where: { $0.firstSequenceNumber <= event.sequenceNumber })
            else { return }
            state.swipes[position].record(event)
        }
    }

    /// Swipe number `number` as counted so far.
    func swipe(_ number: Int) -> FeedSwipe? {
        state.withLock { $0.swipes.indices.contains(number) ? $0.swipes[number] : nil }
    }

    /// Every item that failed, in order, with why.
    var failures: [(index: Int, error: String)] { state.withLock { $0.failures } }
}
