/// Plays a list of items in turn, like `AVQueuePlayer`. The next item is loaded and decoding while the current
/// one plays, so the change from one to the next has no gap. `actionAtItemEnd` is `.advance` by default.
public final class QueuePlayer: Player, @unchecked Sendable {
    /// A queue player for `items`, following `clock`.
    public init(
        items: [PlayerItem] = [], clock: ClockMode = .host, audio: Bool = true, audioOutput: AudioOutput = .null
    ) {
        super.init(
            core: PlayerCore(clock: clock, actionAtItemEnd: .advance, audioEnabled: audio, audioOutput: audioOutput))
        for item in items { insert(item, after: nil) }
    }

    /// The items: the current one first.
    public func items() -> [PlayerItem] { core.read { $0.state.queue.items } }

    /// Ends the current item and plays the next one.
    public func advanceToNextItem() {
        core.mutate { $0.advanceToNextItem(at: $0.clockNow(), reason: .requested) }
    }

    /// Inserts `item` after `afterItem` (at the end when nil). An item already in a queue is not inserted again.
    public func insert(_ item: PlayerItem, after afterItem: PlayerItem?) {
        core.mutate { core in
            guard !core.state.queue.contains(item) else { return }
            if core.state.queue.items.isEmpty {
                core.makeCurrent(item, at: core.clockNow(), reason: .replaced)
                return
            }
            core.state.queue.insert(item, after: afterItem)
            core.prepareUpcoming()
        }
    }

    /// Removes `item` from the queue (the current item: as `advanceToNextItem()`).
    public func remove(_ item: PlayerItem) {
        core.mutate { core in
            if item === core.currentItem {
                core.advanceToNextItem(at: core.clockNow(), reason: .requested)
            } else {
                core.state.work += core.state.queue.remove(item)
            }
        }
    }

    /// Removes every item.
    public func removeAllItems() {
        core.mutate { core in
            // The queued items leave first, so none becomes current on the way (as AVQueuePlayer goes straight to
            // no current item); then the current one.
            for item in core.state.queue.items.dropFirst() { core.state.work += core.state.queue.remove(item) }
            if core.currentItem != nil { core.makeCurrent(nil, at: core.clockNow(), reason: .replaced) }
        }
    }

    /// Sets the hook called (on the callback executor) when the current item is about to advance.
    func setWillAdvance(_ hook: (@Sendable (PlayerItem) -> Void)?) {
        core.mutate { $0.state.willAdvance = hook }
    }
}
