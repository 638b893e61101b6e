/// The constants of ``ABRMachine``'s rules. ``standard`` holds Media3's `AdaptiveTrackSelection` defaults and
/// hls.js's safety factors; ``shortForm`` is for a feed of short items, whose buffer never grows to 10 s. The table
/// of rules and anchors is in docs/streaming-abr.md.
public struct ABRConfiguration: Sendable, Equatable {
    /// The share of the estimate a chosen variant may take: the target is the highest variant whose bandwidth is at
    /// most `bandwidthFraction x estimate`. Media3 `DEFAULT_BANDWIDTH_FRACTION` 0.7; hls.js `abrBandWidthUpFactor`
    /// 0.7.
    public var bandwidthFraction: Double
    /// The share of the estimate the current variant may take and still be kept: it is left for a lower one only
    /// when its bandwidth exceeds `stayFraction x estimate`. hls.js `abrBandWidthFactor` 0.95. Being above
    /// ``bandwidthFraction``, the gap between the two is the hysteresis: a variant of bandwidth B is entered when
    /// the estimate reaches B / 0.7 (1.43 B) and left when it falls under B / 0.95 (1.05 B).
    public var stayFraction: Double
    /// Seconds of media that must be buffered ahead of the playhead before switching up. Media3
    /// `DEFAULT_MIN_DURATION_FOR_QUALITY_INCREASE_MS` 10 000 ms.
    public var minBufferForQualityIncrease: Double
    /// With at least this many seconds buffered, the current variant is kept even when the estimate says it is too
    /// high (the buffer absorbs the slower downloads). Media3 `DEFAULT_MAX_DURATION_FOR_QUALITY_DECREASE_MS`
    /// 25 000 ms. The emergency rule still applies.
    public var maxBufferForQualityDecrease: Double
    /// After a stall, the buffer needed before the first switch up (instead of ``minBufferForQualityIncrease``):
    /// the stall showed the estimate was too high, so the machine waits for more margin. Ours (no anchor has the
    /// rule): twice ``minBufferForQualityIncrease``.
    public var minBufferForQualityIncreaseAfterStall: Double
    /// The estimate before the first measured segment when no start estimate is given (hls.js
    /// `abrEwmaDefaultEstimate` 500 kbit/s).
    public var defaultEstimate: Double
    /// How many decisions ``ABRMachine/history`` keeps (the oldest are dropped).
    public var historyLimit: Int
    /// In a live play, the share of the media between the playhead and the live edge that is enough buffer to
    /// switch up when that share is less than ``minBufferForQualityIncrease`` (a play three target durations behind
    /// the edge never holds 10 s). Media3 `DEFAULT_BUFFERED_FRACTION_TO_LIVE_EDGE_FOR_QUALITY_INCREASE` 0.75.
    public var bufferedFractionToLiveEdgeForQualityIncrease: Double

    public init(
        bandwidthFraction: Double = 0.7, stayFraction: Double = 0.95, minBufferForQualityIncrease: Double = 10,
        maxBufferForQualityDecrease: Double = 25, minBufferForQualityIncreaseAfterStall: Double = 20,
        defaultEstimate: Double = BandwidthEstimator.defaultEstimate, historyLimit: Int = 16,
        bufferedFractionToLiveEdgeForQualityIncrease: Double = 0.75
    ) {
        self.bufferedFractionToLiveEdgeForQualityIncrease = bufferedFractionToLiveEdgeForQualityIncrease
        self.bandwidthFraction = bandwidthFraction
        self.stayFraction = stayFraction
        self.minBufferForQualityIncrease = minBufferForQualityIncrease
        self.maxBufferForQualityDecrease = maxBufferForQualityDecrease
        self.minBufferForQualityIncreaseAfterStall = minBufferForQualityIncreaseAfterStall
        self.defaultEstimate = defaultEstimate
        self.historyLimit = historyLimit
    }

    /// Media3's and hls.js's defaults: 0.7, 0.95, 10 s, 25 s, 20 s after a stall, 500 kbit/s, 0.75 of the media to
    /// a live edge.
    public static let standard = ABRConfiguration()

    /// For a feed of short items (a few seconds to a minute, a forward buffer of a few seconds): switch up with 4 s
    /// buffered (8 s after a stall) and keep the quality from 10 s buffered; the fractions are the standard ones.
    public static let shortForm = ABRConfiguration(
        minBufferForQualityIncrease: 4, maxBufferForQualityDecrease: 10, minBufferForQualityIncreaseAfterStall: 8)
}
