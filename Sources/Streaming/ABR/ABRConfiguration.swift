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
    /// The share of the estimate a variant may take for a switch up with ``maxBufferForQualityDecrease`` or more
    /// buffered: the share grows in a straight line from ``bandwidthFraction`` with an empty buffer to this, never
    /// above ``stayFraction`` (a variant entered is never one the stay rule
    /// leaves). With a deep buffer a slower download than the estimate said costs buffer, not a stall: dash.js's
    /// DYNAMIC strategy hands over from its throughput rule to BOLA above its `stableBufferTime` (12 s), and BOLA caps
    /// a switch up at the rung the measured throughput sustains with no safety factor. 0.95; set it to
    /// ``bandwidthFraction`` for the fixed share.
    public var bandwidthFractionAtFullBuffer: Double
    /// Fast switching (dash.js `fastSwitchEnabled`): on a switch up, the buffer of lower variants is kept for this
    /// many segment durations ahead of the playhead and replaced past it. dash.js replaces from 1.5 segment
    /// durations past the playhead; we keep 3.5: a real run that kept 1.5 stalled when the link dropped a few
    /// seconds after a replacement at the start, most likely as it had thinned the buffer. Nil: never replaced.
    public var retainedSegmentsOnSwitchUp: Double?
    /// A replacement keeps at least the time the new variant's segment takes at the estimate over this factor, so that
    /// the segment arrives with the buffer kept half full even when the link delivers half the estimate (BOLA's
    /// `REBUFFER_SAFETY_FACTOR` 0.5: a segment whose download at the measured throughput exceeds half the buffer is
    /// not chosen).
    public var replacementSafetyFactor: Double
    /// A switch up waits while the last download raised the estimate by more than this factor: a rise still under way (ours: TCP's slow start and a download that straddles a
    /// link's return make a rise come in steps, and each step crossing a rung's line is a switch; hls.js's lower of
    /// two averages and dash.js's wider throughput window when samples vary are the same caution about rises). The
    /// start's correction does not wait. 1.1; `.infinity` turns it off.
    public var settledRiseFactor: Double
    public init(
        bandwidthFraction: Double = 0.7, stayFraction: Double = 0.95, minBufferForQualityIncrease: Double = 10,
        maxBufferForQualityDecrease: Double = 25, minBufferForQualityIncreaseAfterStall: Double = 20,
        defaultEstimate: Double = BandwidthEstimator.defaultEstimate, historyLimit: Int = 16,
        bufferedFractionToLiveEdgeForQualityIncrease: Double = 0.75, bandwidthFractionAtFullBuffer: Double = 0.95,
        retainedSegmentsOnSwitchUp: Double? = 3.5, replacementSafetyFactor: Double = 0.5,
        settledRiseFactor: Double = 1.1
    ) {
        self.settledRiseFactor = settledRiseFactor
        self.bufferedFractionToLiveEdgeForQualityIncrease = bufferedFractionToLiveEdgeForQualityIncrease
        self.bandwidthFractionAtFullBuffer = bandwidthFractionAtFullBuffer
        self.retainedSegmentsOnSwitchUp = retainedSegmentsOnSwitchUp
        self.replacementSafetyFactor = replacementSafetyFactor
        self.bandwidthFraction = bandwidthFraction
        self.stayFraction = stayFraction
        self.minBufferForQualityIncrease = minBufferForQualityIncrease
        self.maxBufferForQualityDecrease = maxBufferForQualityDecrease
        self.minBufferForQualityIncreaseAfterStall = minBufferForQualityIncreaseAfterStall
        self.defaultEstimate = defaultEstimate
        self.historyLimit = historyLimit
    }

    /// Media3's and hls.js's defaults: 0.7, 0.95, 10 s, 25 s, 20 s after a stall, 500 kbit/s, 0.75 of the media to
    /// a live edge; dash.js's buffer-aware switch up (0.7 with an empty buffer growing to 0.95 at 25 s buffered) and fast
    /// switching (3.5 segments kept, the new segment within half of them).
    public static let standard = ABRConfiguration()

    /// For a feed of short items (a few seconds to a minute, a forward buffer of a few seconds): switch up with 4 s
    /// buffered (8 s after a stall) and keep the quality from 10 s buffered; the fractions are the standard ones.
    public static let shortForm = ABRConfiguration(
        minBufferForQualityIncrease: 4, maxBufferForQualityDecrease: 10, minBufferForQualityIncreaseAfterStall: 8)
}
