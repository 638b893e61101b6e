import Foundation

/// Merges the metric streams of several items or players into one, in chronological order.
///
/// The merge delivers the earliest event among the next events of every stream, so it delivers an event only
/// once every other stream has an event waiting or has ended: a stream that stays silent holds the merge back
/// until it speaks or ends (a player's streams end when it is invalidated, an item's when the item is gone).
/// Events with equal dates come in the order of the streams given; each stream's own order is kept.
public enum MetricsMerge {
    /// The events of `streams`, earliest first.
    public static func chronological<Event: MetricEvent>(
        _ streams: [AsyncStream<Event>],
        bufferLimit: Int = MetricsCollector.defaultBufferLimit
    )
        -> AsyncStream<Event>
    {
        merge(streams, bufferLimit: bufferLimit) { $0.date }
    }

    /// The events of `streams` (of every type), earliest first.
    public static func chronological(
        _ streams: [AsyncStream<any MetricEvent>],
        bufferLimit: Int = MetricsCollector.defaultBufferLimit
    )
        -> AsyncStream<any MetricEvent>
    {
        merge(streams, bufferLimit: bufferLimit) { $0.date }
    }

    private static func merge<Element: Sendable>(
        _ streams: [AsyncStream<Element>], bufferLimit: Int,
        date: @escaping @Sendable (Element) -> Date
    ) -> AsyncStream<Element> {
        let (output, continuation) = AsyncStream.makeStream(
            of: Element.self,
            bufferingPolicy: .bufferingNewest(max(bufferLimit, 1)))
        let task = Task {
            var iterators = streams.map { $0.makeAsyncIterator() }
            var heads: [Element?] = []
            for index in iterators.indices { heads.append(await iterators[index].next()) }
            while !Task.isCancelled {
                var earliest: (index: Int, date: Date)?
                for (index, head) in heads.enumerated() {
                    guard let head else { continue }
                    let when = date(head)
                    if earliest == nil || when < earliest!.date { earliest = (index, when) }
                }
                guard let index = earliest?.index, let event = heads[index] else { break }
                continuation.yield(event)
                heads[index] = await iterators[index].next()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return output
    }
}
