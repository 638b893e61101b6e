import Foundation
import Locking

/// The metric streams of items: each player's collector hands every metric event about an item to that item's
/// streams here, so an item's streams follow it from player to player.
enum ItemMetrics {
    private struct Entry {
        weak var item: PlayerItem?
        let broadcaster: EventBroadcaster<any MetricEvent>
    }

    private static let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// A stream of `item`'s metric events from now on, mapped by `transform`.
    static func subscribe<Output: Sendable>(
        _ item: PlayerItem, bufferLimit: Int?,
        _ transform: @escaping @Sendable (any MetricEvent) -> Output?
    )
        -> AsyncStream<Output>
    {
        let broadcaster = entries.withLock { entries -> EventBroadcaster<any MetricEvent> in
            let key = ObjectIdentifier(item)
            if let entry = entries[key], entry.item === item { return entry.broadcaster }
            let broadcaster = EventBroadcaster<any MetricEvent>(bufferLimit: MetricsCollector.defaultBufferLimit)
            entries[key] = Entry(item: item, broadcaster: broadcaster)
            return broadcaster
        }
        purge()
        return broadcaster.subscribe(bufferLimit: bufferLimit, transform)
    }

    /// Sends `event` to `item`'s streams, if it has any.
    static func yield(_ event: any MetricEvent, for item: PlayerItem) {
        let broadcaster = entries.withLock { entries -> EventBroadcaster<any MetricEvent>? in
            guard let entry = entries[ObjectIdentifier(item)], entry.item === item else { return nil }
            return entry.broadcaster
        }
        broadcaster?.yield(event)
    }

    /// Ends the streams of items that are gone.
    static func purge() {
        let gone = entries.withLock { entries -> [EventBroadcaster<any MetricEvent>] in
            let dead = entries.filter { $0.value.item == nil }
            for key in dead.keys { entries.removeValue(forKey: key) }
            return dead.values.map(\.broadcaster)
        }
        for broadcaster in gone { broadcaster.finish() }
    }
}

extension PlayerItem {
    /// This item's metric events of type `type` from now on, in whichever player it plays (like
    /// `AVPlayerItem.metrics(forType:)`). See ``MetricsCollector`` for the delivery policy; the stream ends once
    /// the item is gone (noticed when a player's session ends or another item stream is made).
    public func metrics<Event: MetricEvent>(forType type: Event.Type, bufferLimit: Int? = nil) -> AsyncStream<Event> {
        ItemMetrics.subscribe(self, bufferLimit: bufferLimit) { $0 as? Event }
    }

    /// Every metric event of this item from now on.
    public func allMetrics(bufferLimit: Int? = nil) -> AsyncStream<any MetricEvent> {
        ItemMetrics.subscribe(self, bufferLimit: bufferLimit) { $0 }
    }
}

extension Player {
    /// This player's metrics collector: streams, content swaps, the hang watchdog's settings.
    public var metricsCollector: MetricsCollector { core.metrics }

    /// This player's metric events of type `type` from now on, for every item it plays.
    public func metrics<Event: MetricEvent>(forType type: Event.Type, bufferLimit: Int? = nil) -> AsyncStream<Event> {
        core.metrics.metrics(forType: type, bufferLimit: bufferLimit)
    }

    /// Every metric event of this player from now on.
    public func allMetrics(bufferLimit: Int? = nil) -> AsyncStream<any MetricEvent> {
        core.metrics.allMetrics(bufferLimit: bufferLimit)
    }

    /// Calls `observer` with every player event and metric event of this player as it is sent, in the order of
    /// ``eventsAndMetrics(bufferLimit:)``, on the player's callback executor (see ``Player``). It may call the
    /// player.
    public func observeEventsAndMetrics(_ observer: @escaping @Sendable (PlaybackRecord) -> Void) {
        core.metrics.observe(observer)
    }

    /// Every player event and metric event of this player from now on, in one order (a metric derived from a
    /// player event follows it at once).
    public func eventsAndMetrics(bufferLimit: Int? = nil) -> AsyncStream<PlaybackRecord> {
        core.metrics.eventsAndMetrics(bufferLimit: bufferLimit)
    }
}
