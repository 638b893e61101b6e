import Locking

/// Loops one item on a `QueuePlayer` without gaps, like `AVPlayerLooper`: it keeps copies of the item queued, each
/// loaded ahead of time, and counts the loops completed.
public final class PlayerLooper: Sendable {
    private let counter = Locked(0)
    private let template: PlayerItem
    private weak let player: QueuePlayer?

    /// Starts looping `item` on `player` (its queue is replaced by copies of the item).
    public init(player: QueuePlayer, templateItem item: PlayerItem) {
        self.template = item
        self.player = player
        player.removeAllItems()
        player.actionAtItemEnd = .advance
        player.insert(item.copy(), after: nil)
        player.insert(item.copy(), after: nil)
        player.setWillAdvance { [weak self] _ in self?.itemFinished() }
    }

    /// Loops played to their end so far.
    public var loopCount: Int { counter.withLock { $0 } }

    /// Stops looping: the current copy plays to its end, then the player has no item.
    public func disableLooping() {
        guard let player else { return }
        player.setWillAdvance(nil)
        // The copy queued behind the current one, loaded ahead for a gapless loop, goes too.
        for item in player.items().dropFirst() { player.remove(item) }
    }

    private func itemFinished() {
        counter.withLock { $0 += 1 }
        player?.insert(template.copy(), after: nil)
    }
}
