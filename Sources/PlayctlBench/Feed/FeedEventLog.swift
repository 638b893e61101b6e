import Feed
import Locking

/// Keeps a feed's events and reads the swipes' first-frame latencies out of them.
final class FeedEventLog: Sendable {
    private struct Current {
        /// `feed.visible` events so far: the opening item's is 1, the first swipe's 2.
        var visible = 0
        var index = -1
        var shown = false
    }

    private let events = Locked<[FeedEvent]>([])
    private let current = Locked(Current())

    /// Starts keeping `feed`'s events.
    init(_ feed: FeedController) {
        feed.observeEvents { [events, current] event in
            events.withLock { $0.append(event) }
            current.withLock { current in
                switch event.kind {
                case .visible(let index): current = Current(visible: current.visible + 1, index: index, shown: false)
                case .firstFrame(let index, _, _) where index == current.index: current.shown = true
                default: break
                }
            }
        }
    }

    /// Whether step `step` of the trace (0: the opening item) showed its first frame.
    func hasFirstFrame(step: Int) -> Bool {
        current.withLock { $0.visible == step + 1 && $0.shown }
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
            case .active(let index, let prepared, let hasFrame):
                if steps.last?.index == index {
                    steps[steps.count - 1].prepared = prepared
                    steps[steps.count - 1].hadFrame = hasFrame
                }
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
