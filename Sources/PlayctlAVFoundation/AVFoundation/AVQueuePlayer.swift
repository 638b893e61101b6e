import Locking
import Playback

/// Plays a list of items in turn, as AVFoundation's `AVQueuePlayer`, over a playctl `QueuePlayer`: the next item
/// loads while the current one plays, so the change has no gap. `actionAtItemEnd` is `.advance`.
open class AVQueuePlayer: AVPlayer, @unchecked Sendable {
    /// A queue player of `items`, in order.
    public convenience init(items: [AVPlayerItem]) {
        self.init()
        for item in items { insert(item, after: nil) }
    }

    override class func makeEngine(_ configuration: PlayctlAVFoundation.Configuration) -> Player {
        QueuePlayer(items: [], clock: configuration.clock, audio: configuration.decodesAudio)
    }

    /// The engine's queue player.
    public var playctlQueuePlayer: QueuePlayer {
        guard let queue = playctlPlayer as? QueuePlayer else {
            preconditionFailure("an AVQueuePlayer drives a QueuePlayer")
        }
        return queue
    }

    override func heldEngineItems() -> [PlayerItem] { playctlQueuePlayer.items() }

    /// The items: the current one first.
    public func items() -> [AVPlayerItem] {
        playctlQueuePlayer.items().compactMap { wrapper(for: $0.serialNumber) }
    }

    /// Ends the current item and plays the next.
    public func advanceToNextItem() { playctlQueuePlayer.advanceToNextItem() }

    /// Whether `item` may be inserted: not when it is already in a queue.
    public func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        !playctlQueuePlayer.items().contains { $0 === item.playctlItem }
    }

    /// Inserts `item` after `afterItem` (at the end when nil); an item already queued is not inserted again.
    public func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        adopt(item)
        playctlQueuePlayer.insert(item.playctlItem, after: afterItem?.playctlItem)
    }

    /// Removes `item` (the current item: as ``advanceToNextItem()``).
    public func remove(_ item: AVPlayerItem) { playctlQueuePlayer.remove(item.playctlItem) }

    /// Removes every item.
    public func removeAllItems() { playctlQueuePlayer.removeAllItems() }
}

/// Loops one item on a queue player without gaps, as `AVPlayerLooper`, over a playctl `PlayerLooper`: copies of
/// the template item are queued and loaded ahead; `loopCount` counts the loops played to their end.
public final class AVPlayerLooper: NSObject, PlayctlKeyValueObserving, @unchecked Sendable {
    /// Whether looping works, as `AVPlayerLooper.Status`.
    public enum Status: Int, Sendable, Hashable {
        case unknown = 0
        case ready = 1
        case failed = 2
        case cancelled = 3
    }

    /// The engine's looper.
    public let playctlLooper: PlayerLooper
    private weak var player: AVQueuePlayer?
    private let disabled = Locked(false)
    /// This looper's key-value observations (`status`, `loopCount`).
    public let keyValueObservers = KeyValueObservers()

    /// Loops `templateItem` on `player` (its queue is replaced by copies of the item).
    public init(player: AVQueuePlayer, templateItem: AVPlayerItem) {
        self.player = player
        playctlLooper = PlayerLooper(player: player.playctlQueuePlayer, templateItem: templateItem.playctlItem)
        super.init()
        player.playctlPlayer.observeEvents { [weak self] event in
            switch event.kind {
            case .itemStatus, .currentItem: self?.keyValueObservers.changed(sequence: event.sequenceNumber)
            default: break
            }
        }
    }

    /// Loops `templateItem` on `player` over `timeRange`: only the whole item is supported (any range is taken as
    /// the whole item).
    public convenience init(player: AVQueuePlayer, templateItem: AVPlayerItem, timeRange: CMTimeRange) {
        self.init(player: player, templateItem: templateItem)
    }

    /// Loops played to their end.
    public var loopCount: Int { playctlLooper.loopCount }

    /// `.ready` once the copy playing is ready, `.failed` when it failed, `.cancelled` after ``disableLooping()``.
    public var status: Status {
        if disabled.withLock({ $0 }) { return .cancelled }
        switch player?.currentItem?.status {
        case .readyToPlay: return .ready
        case .failed: return .failed
        default: return .unknown
        }
    }

    /// The error of a failed copy.
    public var error: Error? { player?.currentItem?.error }

    /// The copies queued.
    public var loopingPlayerItems: [AVPlayerItem] { player?.items() ?? [] }

    /// Stops looping: the copy playing plays to its end, then the player has nothing more.
    public func disableLooping() {
        disabled.withLock { $0 = true }
        playctlLooper.disableLooping()
        keyValueObservers.changed(sequence: nil)
    }
}
