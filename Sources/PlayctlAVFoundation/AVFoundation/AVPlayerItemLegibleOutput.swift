import Locking
import Playback

/// The delegate of an ``AVPlayerItemLegibleOutput``, as `AVPlayerItemLegibleOutputPushDelegate`.
public protocol AVPlayerItemLegibleOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// The text shown changed at `itemTime`: `strings` is what shows now, one per cue (empty: nothing shows).
    /// `nativeSamples` is empty: there are no `CMSampleBuffer`s on Linux.
    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime)
}

extension AVPlayerItemLegibleOutputPushDelegate {
    public func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime
    ) {}
}

/// The subtitles an item shows, pushed to a delegate, as AVFoundation's `AVPlayerItemLegibleOutput`: each time the
/// cues on screen change (a cue starts or ends, a seek lands, the selection changes), the text of every cue shown
/// then as an `NSAttributedString`, at the item time of the change. The selected legible option's cues: a
/// container's subtitle track, a sidecar file or an HLS rendition (``AVPlayerItem/select(_:in:)``). Over a playctl
/// `PlayerItemLegibleOutput`.
///
/// The delegate is called on its queue (a serial queue of the output's own when none is given), in order.
open class AVPlayerItemLegibleOutput: AVPlayerItemOutput, @unchecked Sendable {
    /// How styles are resolved, as `AVPlayerItemLegibleOutput.TextStylingResolution`: kept (the strings carry the
    /// cues' text, without attributes).
    public struct TextStylingResolution: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The source's styles and the user's preferences.
        public static let `default` = TextStylingResolution(
            rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionDefault")
        /// The source's styles only.
        public static let sourceAndRulesOnly = TextStylingResolution(
            rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionSourceAndRulesOnly")
    }

    private struct Delegation {
        weak var delegate: (any AVPlayerItemLegibleOutputPushDelegate)?
        var queue: DispatchQueue?
    }

    private let delegation = Locked(Delegation())
    private let engineOutput = Locked<PlayerItemLegibleOutput?>(nil)
    /// When the delegate is called ahead of the item time it is for: kept as set, not used (the engine delivers at
    /// the item time).
    public var advanceIntervalForDelegateInvocation: TimeInterval = 0
    /// Kept as set (see ``TextStylingResolution``).
    public var textStylingResolution: TextStylingResolution = .default

    /// An output of the selected legible option's text.
    public override init() {
        super.init()
    }

    /// An output that would give the media subtypes listed as native samples: there are none on Linux, so the text
    /// comes as attributed strings whatever the list.
    public convenience init(mediaSubtypesForNativeRepresentation subtypes: [NSNumber]) {
        self.init()
    }

    /// The delegate (held weakly).
    public var delegate: (any AVPlayerItemLegibleOutputPushDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    public var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on (nil: a serial queue of the output's own).
    public func setDelegate(_ delegate: (any AVPlayerItemLegibleOutputPushDelegate)?, queue: DispatchQueue?) {
        delegation.withLock {
            $0.delegate = delegate
            $0.queue = delegate == nil ? nil : (queue ?? DispatchQueue(label: "playctl.legible-output"))
        }
    }

    override func attach(to item: AVPlayerItem) {
        let output = PlayerItemLegibleOutput { [weak self] cues, itemTime in self?.deliver(cues, at: itemTime) }
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

    /// Runs on the player's callback executor: the cues shown from `itemTime` on, to the delegate on its queue.
    private func deliver(_ cues: [TextCue], at itemTime: MediaTime) {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate, let queue else { return }
        let texts = cues.map(\.text)
        let time = CMTime(itemTime)
        nonisolated(unsafe) let target = delegate
        queue.async { [self] in
            target.legibleOutput(
                self, didOutputAttributedStrings: texts.map { NSAttributedString(string: $0) }, nativeSampleBuffers: [],
                forItemTime: time)
        }
    }
}
