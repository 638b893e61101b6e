import Locking
import Playback

/// What every push output's delegate may be told, as `AVPlayerItemOutputPushDelegate`.
public protocol AVPlayerItemOutputPushDelegate: NSObjectProtocol {
    /// The output's sequence was flushed (the item jumped: a seek): what it handed out before is not followed by
    /// what comes next.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPushDelegate {
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// The delegate of an ``AVPlayerItemMetadataOutput``, as `AVPlayerItemMetadataOutputPushDelegate`.
public protocol AVPlayerItemMetadataOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// The playhead reached `groups` (in order of their time). `track` is nil: the engine does not name the item's
    /// track a sample came from.
    func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?)
}

extension AVPlayerItemMetadataOutputPushDelegate {
    public func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?
    ) {}
}

/// One of an item's tracks as a player plays it, as `AVPlayerItemTrack`.
open class AVPlayerItemTrack: NSObject, @unchecked Sendable {
    /// The asset's track.
    public let assetTrack: AVAssetTrack?
    /// Whether the player plays it.
    public let isEnabled: Bool

    init(assetTrack: AVAssetTrack?, isEnabled: Bool) {
        self.assetTrack = assetTrack
        self.isEnabled = isEnabled
        super.init()
    }
}

/// An item's timed metadata pushed to a delegate, as AVFoundation's `AVPlayerItemMetadataOutput`: each sample of
/// the item's timed metadata (ID3 in MPEG-TS and HLS of TS segments; MP4 `mebx` tracks and `emsg` boxes, in HLS
/// fMP4 too) as an ``AVTimedMetadataGroup`` when the
/// playhead reaches it, again after a seek back before it; a seek tells the delegate
/// ``AVPlayerItemOutputPushDelegate/outputSequenceWasFlushed(_:)`` first. Over a playctl `PlayerItemMetadataOutput`.
///
/// The delegate is called on its queue (a serial queue of the output's own when none is given), in order.
open class AVPlayerItemMetadataOutput: AVPlayerItemOutput, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVPlayerItemMetadataOutputPushDelegate)?
        var queue: DispatchQueue?
    }

    private let delegation = Locked(Delegation())
    /// The identifiers of the items wanted (`id3/TXXX`, ...); nil for every item.
    private let identifiers: [String]?
    private let engineOutput = Locked<PlayerItemMetadataOutput?>(nil)
    /// When the delegate is called ahead of the item time it is for: kept as set, not used (the engine delivers at
    /// the item time).
    public var advanceIntervalForDelegateInvocation: TimeInterval = 0

    /// An output of the items with `identifiers` (nil: all of them; a group left with no item is not delivered).
    public init(identifiers: [String]?) {
        self.identifiers = identifiers
        super.init()
    }

    /// The delegate (held weakly).
    public var delegate: (any AVPlayerItemMetadataOutputPushDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    public var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on (nil: a serial queue of the output's own).
    public func setDelegate(_ delegate: (any AVPlayerItemMetadataOutputPushDelegate)?, queue: DispatchQueue?) {
        delegation.withLock {
            $0.delegate = delegate
            $0.queue = delegate == nil ? nil : (queue ?? DispatchQueue(label: "playctl.metadata-output"))
        }
    }

    override func attach(to item: AVPlayerItem) {
        let output = PlayerItemMetadataOutput(
            flushed: { [weak self] in self?.flush() }, { [weak self] samples in self?.deliver(samples) })
        engineOutput.withLock { $0 = output }
        item.playctlItem.add(output)
    }

    override func detach(from item: AVPlayerItem) {
        let output = engineOutput.withLock { output in
            defer { output = nil }
            return output
        }
        if let output { item.playctlItem.remove(output) }
    }

    /// Runs on the player's callback executor: a seek landed.
    private func flush() {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else { return }
        nonisolated(unsafe) let target = delegate
        queue.async { [self] in target.outputSequenceWasFlushed(self) }
    }

    /// Runs on the player's callback executor: the groups of `samples` to the delegate, on its queue.
    private func deliver(_ samples: [TimedMetadataSample]) {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else { return }
        let groups = samples.compactMap { sample -> AVTimedMetadataGroup? in
            let group = AVTimedMetadataGroup(sample)
            guard let identifiers else { return group }
            let items = group.items.filter { item in identifiers.contains { $0 == item.identifier?.rawValue } }
            return items.isEmpty ? nil : AVTimedMetadataGroup(items: items, timeRange: group.timeRange)
        }
        guard !groups.isEmpty else { return }
        nonisolated(unsafe) let target = delegate
        queue.async { [self] in target.metadataOutput(self, didOutputTimedMetadataGroups: groups, from: nil) }
    }
}
