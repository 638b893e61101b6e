import Locking
import Playback

/// An item's metric events of one type, as iOS 18's `AVMetrics`: an asynchronous sequence of the events from the
/// moment it was made (`for await event in item.metrics(forType: AVMetricPlayerItemSeekEvent.self)`), which ends
/// when the item is gone. Events of subclasses of the type are included (`AVMetricPlayerItemRateChangeEvent`
/// also gives the stall and seek events, which are rate changes).
public struct AVMetrics<MetricEvent: AVMetricEvent>: AsyncSequence, Sendable {
    public typealias Element = MetricEvent
    let stream: AsyncStream<MetricEvent>

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }

    /// Takes the events one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<MetricEvent>.Iterator
        public mutating func next() async -> MetricEvent? { await base.next() }
    }
}

extension AVPlayerItem {
    /// This item's metric events of type `metricType` from now on, in whichever player it plays.
    public func metrics<MetricEvent: AVMetricEvent>(forType metricType: MetricEvent.Type) -> AVMetrics<MetricEvent> {
        let mapper = MetricMapper()
        return AVMetrics(stream: playctlItem.allMetrics().compactMapped { mapper.map($0) as? MetricEvent })
    }

    /// Every metric event of this item from now on.
    public func allMetrics() -> AVMetrics<AVMetricEvent> { metrics(forType: AVMetricEvent.self) }
}

/// Makes AVFoundation's metric classes of the engine's events, keeping the last rate for the events that carry it.
final class MetricMapper: Sendable {
    private let rate = Locked(0.0)

    func map(_ event: any MetricEvent) -> AVMetricEvent? {
        switch event {
        case let change as RateChangeEvent:
            rate.withLock { $0 = Double(change.rate) }
            return AVMetricPlayerItemRateChangeEvent(
                change, rate: Double(change.rate), previousRate: Double(change.previousRate))
        case let stall as StallEvent:
            let rate = self.rate.withLock { $0 }
            return AVMetricPlayerItemStallEvent(stall, rate: rate, previousRate: rate)
        case let seek as SeekEvent:
            let rate = self.rate.withLock { $0 }
            return AVMetricPlayerItemSeekEvent(seek, rate: rate, previousRate: rate)
        case let completion as SeekDidCompleteEvent:
            return AVMetricPlayerItemSeekDidCompleteEvent(completion, rate: rate.withLock { $0 })
        case let initial as InitialLikelyToKeepUpEvent:
            return AVMetricPlayerItemInitialLikelyToKeepUpEvent(initial, timeTaken: initial.timeTaken)
        case let likely as LikelyToKeepUpEvent:
            return AVMetricPlayerItemLikelyToKeepUpEvent(likely, timeTaken: likely.timeTaken)
        case let summary as PlaybackSummaryEvent:
            return AVMetricPlayerItemPlaybackSummaryEvent(summary)
        case let start as VariantSwitchStartEvent:
            return AVMetricPlayerItemVariantSwitchStartEvent(start)
        case let change as VariantSwitchEvent:
            return AVMetricPlayerItemVariantSwitchEvent(change)
        default:
            return nil
        }
    }
}

extension AsyncStream where Element: Sendable {
    /// The elements `transform` maps to a value, in order; ends with this stream (or when the consumer stops).
    func compactMapped<Output: Sendable>(_ transform: @escaping @Sendable (Element) -> Output?) -> AsyncStream<Output> {
        let (stream, continuation) = AsyncStream<Output>.makeStream()
        let task = Task {
            for await element in self {
                if let output = transform(element) { continuation.yield(output) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
