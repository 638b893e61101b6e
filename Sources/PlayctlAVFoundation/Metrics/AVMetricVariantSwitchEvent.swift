import Playback

/// An adaptive item attempts to take its segments from another variant (or makes its first choice), as
/// `AVMetricPlayerItemVariantSwitchStartEvent` (the engine's ``VariantSwitchStartEvent`` in
/// ``AVMetricEvent/playctlEvent`` has the segment, the reason and the bandwidth estimate).
open class AVMetricPlayerItemVariantSwitchStartEvent: AVMetricEvent, @unchecked Sendable {
    /// The variant before; nil for the first choice.
    public let fromVariant: AVAssetVariant?
    /// The variant chosen.
    public let toVariant: AVAssetVariant
    /// The media time ranges loaded then.
    public let loadedTimeRanges: [CMTimeRange]

    init(_ event: VariantSwitchStartEvent) {
        fromVariant = event.from.map(AVAssetVariant.init)
        toVariant = AVAssetVariant(event.to)
        loadedTimeRanges = event.loadedTimeRanges.map(CMTimeRange.init)
        super.init(event)
    }
}

/// A variant switch ended, as `AVMetricPlayerItemVariantSwitchEvent`: `didSucceed` when the player reads the new
/// variant's segments (the engine's ``VariantSwitchEvent`` in ``AVMetricEvent/playctlEvent`` says more).
open class AVMetricPlayerItemVariantSwitchEvent: AVMetricEvent, @unchecked Sendable {
    /// The variant before; nil for the first choice.
    public let fromVariant: AVAssetVariant?
    /// The variant chosen.
    public let toVariant: AVAssetVariant
    /// The media time ranges loaded when it ended.
    public let loadedTimeRanges: [CMTimeRange]
    /// Whether the switch took effect (false when a later decision replaced it or the item left first).
    public let didSucceed: Bool

    init(_ event: VariantSwitchEvent) {
        fromVariant = event.from.map(AVAssetVariant.init)
        toVariant = AVAssetVariant(event.to)
        loadedTimeRanges = event.loadedTimeRanges.map(CMTimeRange.init)
        didSucceed = event.didSucceed
        super.init(event)
    }
}
