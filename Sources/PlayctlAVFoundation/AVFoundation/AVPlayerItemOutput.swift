import Locking

/// CoreFoundation's interval of seconds (`CACurrentMediaTime()` returns one on Apple platforms).
public typealias CFTimeInterval = Double

/// What an item's outputs share, as AVFoundation's `AVPlayerItemOutput`: the item they are added to, the mapping of
/// host time to item time, and ``suppressesPlayerRendering``.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    struct Attachment {
        weak var item: AVPlayerItem?
        var suppressesPlayerRendering = false
    }

    let attachment = Locked(Attachment())

    override init() {
        super.init()
    }

    /// Whether the app draws the item's pictures itself: kept as set (false by default; there is no player
    /// rendering to suppress on Linux: a player's layers and sinks get the frames either way).
    public var suppressesPlayerRendering: Bool {
        get { attachment.withLock { $0.suppressesPlayerRendering } }
        set { attachment.withLock { $0.suppressesPlayerRendering = newValue } }
    }

    /// The item time at `hostTimeInSeconds`, a time of the playing player's clock in seconds
    /// (`player.playctlPlayer.clockTime`: seconds since the player was made, virtual under a manual clock; what
    /// `CACurrentMediaTime()` is to an iOS player): the item's current time, moved by the time from now to
    /// `hostTimeInSeconds` times the rate while the player plays. `.invalid` while the output is on no item or its
    /// item is not its player's current one.
    public func itemTime(forHostTime hostTimeInSeconds: CFTimeInterval) -> CMTime {
        guard let item = attachment.withLock({ $0.item }), let player = item.owner.withLock({ $0.value }),
            player.playctlPlayer.currentItem === item.playctlItem
        else { return .invalid }
        let engine = player.playctlPlayer
        let now = engine.clockTime
        let current = engine.currentTime().seconds
        let rate = engine.timeControlStatus == .playing ? Double(engine.rate) : 0
        return CMTime(seconds: current + (hostTimeInSeconds - now) * rate, preferredTimescale: 1_000_000)
    }

    /// Called when the output is added to `item` (subclasses connect to its engine item).
    func attach(to item: AVPlayerItem) {}
    /// Called when the output is removed from `item`.
    func detach(from item: AVPlayerItem) {}
}

extension AVPlayerItem {
    /// The outputs added to the item, in the order they were added.
    public var outputs: [AVPlayerItemOutput] { itemOutputs.withLock { $0 } }

    /// Whether `output` can be added: it is on no item (an output serves one item at a time).
    public func canAdd(_ output: AVPlayerItemOutput) -> Bool {
        output.attachment.withLock { $0.item == nil }
    }

    /// Adds `output`: it gets the item's frames from then on, whichever player plays the item. An output already on
    /// an item is not added (Apple's raises an exception; check ``canAdd(_:)``).
    public func add(_ output: AVPlayerItemOutput) {
        let added = output.attachment.withLock { attachment -> Bool in
            guard attachment.item == nil else { return false }
            attachment.item = self
            return true
        }
        guard added else { return }
        itemOutputs.withLock { $0.append(output) }
        output.attach(to: self)
    }

    /// Removes `output`: it gets no frame after this returns. An output not on this item is left alone.
    public func remove(_ output: AVPlayerItemOutput) {
        let removed = output.attachment.withLock { attachment -> Bool in
            guard attachment.item === self else { return false }
            attachment.item = nil
            return true
        }
        guard removed else { return }
        itemOutputs.withLock { $0.removeAll { $0 === output } }
        output.detach(from: self)
    }
}
