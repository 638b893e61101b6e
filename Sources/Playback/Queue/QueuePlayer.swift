import MediaIO

/// Plays a list of items in turn, like `AVQueuePlayer`. The next item is loaded and decoding while the current
/// one plays, so the change from one to the next has no gap. `actionAtItemEnd` is `.advance` by default.
public final class QueuePlayer: Player, @unchecked Sendable {
    /// A queue player for `items`, following `clock`.
    public init(items: [PlayerItem] = [], clock: ClockMode = .host, audio: Bool = true) {
        super.init(engine: PlayerEngine(clock: clock, actionAtItemEnd: .advance, audioEnabled: audio))
        for item in items { insert(item, after: nil) }
    }

    /// The items: the current one first.
    public func items() -> [PlayerItem] { locked { $0.items } }

    /// Ends the current item and plays the next one.
    public func advanceToNextItem() {
        locked { $0.advanceToNextItem(at: $0.clockNow(), reason: .requested) }
    }

    /// Inserts `item` after `afterItem` (at the end when nil). An item already in a queue is not inserted again.
    public func insert(_ item: PlayerItem, after afterItem: PlayerItem?) {
        locked { engine in
            guard !engine.items.contains(where: { $0 === item }) else { return }
            if engine.items.isEmpty {
                engine.makeCurrent(item, at: engine.clockNow(), reason: .replaced)
                return
            }
            if let afterItem, let index = engine.items.firstIndex(where: { $0 === afterItem }) {
                engine.items.insert(item, at: index + 1)
            } else {
                engine.items.append(item)
            }
            engine.prepareUpcoming()
        }
    }

    /// Removes `item` from the queue (the current item: as `advanceToNextItem()`).
    public func remove(_ item: PlayerItem) {
        locked { engine in
            if item === engine.currentItem {
                engine.advanceToNextItem(at: engine.clockNow(), reason: .requested)
            } else if let index = engine.items.firstIndex(where: { $0 === item }) {
                engine.items.remove(at: index)
                engine.release(item)
            }
        }
    }

    /// Removes every item.
    public func removeAllItems() {
        locked { engine in
            while engine.currentItem != nil { engine.makeCurrent(nil, at: engine.clockNow(), reason: .replaced) }
        }
    }
}
