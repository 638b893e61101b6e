import Feed
import Locking

/// Reads a feed's events into the swipes' first-frame latencies as they come: it keeps one record per swipe and a
/// count of failures, not the events (the soak's 1000 swipes bring tens of thousands, and the soak measures the
/// process's memory: a log of every event grew it by megabytes that were the bench's, not the feed's).
final class FeedEventLog: Sendable {
    private struct Record {
        /// Every swipe to a new item so far, the opening item first: each begins with `feed.visible`, then
        /// `feed.active` (whether a pooled player held it) and, when it came before the next swipe,
        /// `feed.firstFrame` (its latency). Dwells are filled in from the trace when read.
        var steps: [SwipeRun.Swipe] = []
        var failures = 0
    }

    private let record = Locked(Record())

    /// Starts reading `feed`'s events.
    init(_ feed: FeedController) {
        feed.observeEvents { [record] event in
            record.withLock { Self.fold(event, into: &$0) }
        }
    }

    private static func fold(_ event: FeedEvent, into record: inout Record) {
        switch event.kind {
        case .visible(let index):
            record.steps.append(SwipeRun.Swipe(index: index, latency: nil, prepared: false, dwell: 0))
        case .active(let index, let prepared, let hasFrame):
            if record.steps.last?.index == index {
                record.steps[record.steps.count - 1].prepared = prepared
                record.steps[record.steps.count - 1].hadFrame = hasFrame
            }
        case .picture(let index, let shows):
            if record.steps.last?.index == index && record.steps[record.steps.count - 1].picture == nil {
                record.steps[record.steps.count - 1].picture = shows
            }
        case .firstFrame(let index, let latency, _):
            if record.steps.last?.index == index && record.steps[record.steps.count - 1].latency == nil {
                record.steps[record.steps.count - 1].latency = latency
            }
        case .failed:
            record.failures += 1
        default:
            break
        }
    }

    /// Whether step `step` of the trace (0: the opening item) showed its first frame.
    func hasFirstFrame(step: Int) -> Bool {
        record.withLock { $0.steps.count == step + 1 && $0.steps.last?.latency != nil }
    }

    /// The swipes of `trace` as the feed saw them, each with its dwell from the trace.
    func swipes(_ trace: SwipeTrace) -> [SwipeRun.Swipe] {
        var steps = record.withLock { $0.steps }
        for position in steps.indices {
            steps[position].dwell = position < trace.steps.count ? trace.steps[position].dwell : 0
        }
        // The opening item is not a swipe.
        return Array(steps.dropFirst())
    }

    /// Items that failed.
    var failures: Int { record.withLock { $0.failures } }
}
