import Feed
import Locking

/// Keeps a feed's events and reads the swipes' first-frame latencies out of them.
final class FeedEventLog: Sendable {
    private let events = Locked<[FeedEvent]>([])

    /// Starts keeping `feed`'s events.
    init(_ feed: FeedController) {
        feed.observeEvents { [events] event in events.withLock { $0.append(event) } }
    }

    /// Whether the feed reported item `index`'s first frame (on its first activation).
    func hasFirstFrame(_ index: Int) -> Bool {
        events.withLock { events in
            events.contains { event in
                if case .firstFrame(index, _, _) = event.kind { return true }
                return false
            }
        }
    }

    /// The swipes of `trace` as the feed saw them: every swipe to a new item begins with `feed.visible`, then
    /// `feed.active` (whether a pooled player held it) and, when it came before the next swipe,
    /// `feed.firstFrame` (its latency).
    func swipes(_ trace: SwipeTrace) -> [SwipeRun.Swipe] {
        let events = self.events.withLock { $0 }
        var steps: [SwipeRun.Swipe] = []
        for event in events {
            switch event.kind {
            case .visible(let index):
                let dwell = steps.count < trace.steps.count ? trace.steps[steps.count].dwell : 0
                steps.append(SwipeRun.Swipe(index: index, latency: nil, prepared: false, dwell: dwell))
            case .active(let index, let prepared, _):
                if steps.last?.index == index { steps[steps.count - 1].prepared = prepared }
            case .firstFrame(let index, let latency, _):
                if steps.last?.index == index && steps[steps.count - 1].latency == nil {
                    steps[steps.count - 1].latency = latency
                }
            default:
                break
            }
        }
        // The opening item is not a swipe.
        return Array(steps.dropFirst())
    }

    /// Items that failed.
    var failures: Int {
        events.withLock { events in
            events.filter { event in
                if case .failed = event.kind { return true }
                return false
            }.count
        }
    }
}
