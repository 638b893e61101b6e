/// The rendition choice of one play (adaptive bitrate), as a value: it is told what the link delivered, how much media
/// is buffered, that playback stalled, that the limits changed; asked which variant the next segment comes from, it
/// answers with an ``ABRDecision`` saying why. No media, threads or clock: the driver that loads segments feeds it.
///
/// The rules, in the order ``nextSegment(duration:)`` applies them (constants in ``ABRConfiguration``; the table of
/// anchors is in docs/streaming-abr.md). "The target" is the highest eligible variant whose bandwidth is at most
/// `bandwidthFraction (0.7) x estimate`, or the lowest eligible variant when none is.
/// 1. **Pinned** (``ABRLimits/pinnedVariantID``): the pinned variant, always.
/// 2. **Start**: the first decision is the target for the start estimate (a shared estimate from earlier plays, or
///    the default 500 kbit/s), reason `.initial` (Media3 `DEFAULT_BANDWIDTH_FRACTION`).
/// 3. **Limits**: when the limits exclude the current variant, the highest eligible variant at or below it, reason
///    `.limits`. Every choice is made among the eligible variants only (``ABRLimits/eligible(_:)``).
/// 4. **Emergency** (hls.js's emergency switch down): when the current variant's next segment would take longer to
///    download (`bandwidth x duration / estimate`) than the media buffered, the highest lower variant that would
///    arrive in time (the lowest if none; the target if that is lower still), reason `.bufferLow`.
/// 5. **Up**: when the target is above the current variant and at least `minBufferForQualityIncrease` (10 s, Media3)
///    is buffered (`minBufferForQualityIncreaseAfterStall`, 20 s, after a stall), straight to the target, reason
///    `.bandwidthUp`: it may jump several steps at once, as Media3 does. In a live play
///    (``liveEdge(availableSeconds:)``) `bufferedFractionToLiveEdgeForQualityIncrease` (0.75) of the media to the
///    live edge (but the segment being chosen) is enough when that is less (Media3's live rule). With a deep
///    buffer the target may take more of the estimate: the share grows from 0.7 with an empty buffer to 0.95 at 25 s
///    (`bandwidthFractionAtFullBuffer`), of the lower of the estimate and the slowest of the last 3 downloads
///    (dash.js hands over to BOLA as its buffer grows; BOLA caps a switch up at the recent throughput).
/// 6. **Down**: when the current variant's bandwidth exceeds `stayFraction (0.95) x estimate` (hls.js) and less than
///    `maxBufferForQualityDecrease` (25 s, Media3) is buffered, down to the target, reason `.bandwidthDown`.
/// 7. Otherwise the current variant, reason `.unchanged`.
///
/// A variant's bandwidth in these rules is its peak (`BANDWIDTH`), or its average (`AVERAGE-BANDWIDTH`, when given) for
/// the target once two segments are buffered and no stall is being recovered from (hls.js's `findBestLevel`).
///
/// Hysteresis: a variant of bandwidth B is entered when the estimate reaches B / 0.7 (1.43 B) and kept until the
/// estimate falls under B / 0.95 (1.05 B), so an estimate wobbling by +-10% around either line switches once.
///
/// A download too slow for the buffer (``downloadProgress(variantID:bytes:expectedBytes:seconds:duration:)``,
/// hls.js's abandon rule) is given up for a lower variant's segment that arrives in time, at once.
///
/// A switch up with a deep buffer of a lower variant may replace that buffer past 3.5 segment durations
/// (``switchUpReplacingBuffer(duration:)``, dash.js's fast switching).
///
/// A stall (``stalled()``) switches at once to the target or one step below the current variant, whichever is lower,
/// and raises the buffer needed for the next switch up to `minBufferForQualityIncreaseAfterStall`.
public struct ABRMachine: Sendable {
    /// The ladder, lowest bandwidth first.
    public let variants: [Variant]
    public let configuration: ABRConfiguration
    /// The estimate given at the start (a previous play's), used until the first segment is measured.
    public let startEstimate: Double?
    public private(set) var limits: ABRLimits
    /// The throughput measured on this play's segments.
    public internal(set) var estimator: BandwidthEstimator
    /// Seconds of media buffered ahead of the playhead, as last reported.
    public private(set) var bufferedDuration: Double = 0
    /// The variant of the last decision; nil before the first.
    public private(set) var current: Variant?
    /// How many decisions changed the variant (the first decision is not counted).
    public private(set) var switches = 0
    /// How many stalls were reported.
    public private(set) var stalls = 0
    /// The last decisions that were not `.unchanged`, oldest first, at most ``ABRConfiguration/historyLimit``.
    public private(set) var history: [ABRDecision] = []
    /// The variant whose segment the last sample measured (for an access log).
    public private(set) var lastLoadedVariantID: String?
    /// Whether a stall happened since the last switch up.
    public private(set) var isRecoveringFromStall = false
    /// Whether the first choice was made before any download was measured (from a start estimate or the default).
    public private(set) var startedOnGuess = false
    /// In a live play, seconds of media from the playhead to the live edge as last reported; nil otherwise.
    public private(set) var availableToLiveEdge: Double?
    /// The estimate after each of the last 2 counted downloads, oldest first.
    private var recentEstimates: [Double] = []

    /// A live play tells how much media lies between the playhead and the live edge (the end of the playlist as last
    /// loaded, the segment about to be chosen included): the buffer a switch up needs is then at most
    /// `bufferedFractionToLiveEdgeForQualityIncrease` of it, the segment being chosen left out.
    /// Nil (or NaN) for a presentation with an end; negative is taken as 0.
    public mutating func liveEdge(availableSeconds: Double?) {
        availableToLiveEdge = availableSeconds.flatMap { $0.isNaN ? nil : max(0, $0) }
    }

    /// - Parameters:
    ///   - variants: the ladder (any order; it is sorted by bandwidth).
    ///   - limits: what the app allows.
    ///   - startEstimate: bits per second the link showed before (``SharedBandwidthEstimate``); nil, zero or not
    ///     finite means the configuration's default estimate.
    ///   - configuration: the rules' constants.
    ///   - estimator: the estimator to measure with (its half-lives, its minimum sample).
    /// Returns nil when `variants` is empty: there is nothing to choose.
    public init?(
        variants: [Variant], limits: ABRLimits = .none, startEstimate: Double? = nil,
        configuration: ABRConfiguration = .standard, estimator: BandwidthEstimator = BandwidthEstimator()
    ) {
        guard !variants.isEmpty else { return nil }
        self.variants = ABRLadder.sorted(variants)
        self.limits = limits
        self.startEstimate = startEstimate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.configuration = configuration
        self.estimator = estimator
    }

    /// The estimate the rules use (bits per second): the measured one, else the start estimate, else the
    /// configuration's default (500 kbit/s when that is not a positive number).
    public var estimate: Double {
        if let measured = estimator.estimate ?? startEstimate { return measured }
        let fallback = configuration.defaultEstimate
        return fallback.isFinite && fallback > 0 ? fallback : BandwidthEstimator.defaultEstimate
    }

    /// The estimate measured on this play's segments alone (nil before the first): what a driver records in
    /// ``SharedBandwidthEstimate`` (never ``estimate``, which may be the start estimate or the default).
    public var measuredEstimate: Double? { estimator.estimate }

    /// A segment of `variantID` arrived: `bytes` in `seconds` of download. Feeds the estimator (small segments are
    /// ignored, see ``BandwidthEstimator``). It never switches by itself: the next ``nextSegment(duration:)`` does.
    public mutating func segmentLoaded(bytes: Int, seconds: Double, variantID: String) {
        guard estimator.sample(bytes: bytes, seconds: seconds) else { return }
        lastLoadedVariantID = variantID
        noteEstimate()
    }

    /// Keeps the estimate after a counted download (the last 2), for ``isEstimateRising``.
    mutating func noteEstimate(restarted: Bool = false) {
        if restarted { recentEstimates.removeAll() }
        if let measured = estimator.estimate { recentEstimates.appendKeepingNewest(measured, limit: 2) }
    }

    /// Whether a rise of the estimate is still under way: the last download raised it more than `settledRiseFactor`
    /// (1.1) times. Rises come in steps (TCP's slow start on a play's first downloads; a download that straddled the
    /// link's return, then the rise confirmation), and a switch up on each step is a switch per step; drops are
    /// never waited for. It waits for one download only: a wait for several can outlast the downloads when the play
    /// has little more to fetch (most likely why a real run stayed at 360p after its dip).
    public var isEstimateRising: Bool {
        guard recentEstimates.count == 2, let latest = recentEstimates.last, let before = recentEstimates.first
        else { return false }
        return latest > configuration.settledRiseFactor * before
    }

    /// The media buffered ahead of the playhead, in seconds (negative or NaN is taken as 0).
    public mutating func bufferLevel(_ seconds: Double) {
        bufferedDuration = seconds.isNaN ? 0 : max(0, seconds)
    }

    /// Playback stalled (the buffer ran dry). Returns the switch to make now (the target, or one step below the
    /// current variant, whichever is lower; reason `.stall`), or nil when already at the lowest eligible variant,
    /// pinned, or before the first decision.
    public mutating func stalled() -> ABRDecision? {
        stalls += 1
        isRecoveringFromStall = true
        guard let current, pinnedVariant == nil else { return nil }
        let eligible = limits.eligible(variants)
        guard let below = eligible.last(where: { position($0) < position(current) }) else { return nil }
        let target = target(in: eligible)
        return record(position(target) < position(below) ? target : below, .stall)
    }

    /// New limits. Returns the switch to make now when they exclude the current variant (reason `.limits`, or
    /// `.pinned` for a new pin), else nil: other changes take effect at the next ``nextSegment(duration:)``.
    public mutating func limitsChanged(_ limits: ABRLimits) -> ABRDecision? {
        self.limits = limits
        guard let current else { return nil }
        if let pinned = pinnedVariant { return pinned.id == current.id ? nil : record(pinned, .pinned) }
        let eligible = limits.eligible(variants)
        guard !eligible.contains(where: { $0.id == current.id }) else { return nil }
        return record(fallback(for: current, in: eligible), .limits)
    }

    /// Which variant the next segment, of `duration` seconds, comes from, and why (the rules above).
    public mutating func nextSegment(duration: Double) -> ABRDecision {
        let duration = duration.isFinite && duration > 0 ? duration : 0
        let eligible = limits.eligible(variants)
        // hls.js: a variant's average bit rate (AVERAGE-BANDWIDTH) is what its downloads take once two segments
        // are buffered and no stall is being recovered from; its peak (BANDWIDTH) otherwise.
        let byAverage = duration > 0 && bufferedDuration >= 2 * duration && !isRecoveringFromStall
        let target = target(in: eligible, byAverage: byAverage, fraction: upFraction)
        guard let current else {
            if let pinned = pinnedVariant { return record(pinned, .pinned) }
            startedOnGuess = estimator.estimate == nil
            return record(target, .initial)
        }
        if let pinned = pinnedVariant { return record(pinned, pinned.id == current.id ? .unchanged : .pinned) }
        guard eligible.contains(where: { $0.id == current.id }) else {
            return record(fallback(for: current, in: eligible), .limits)
        }
        if let rescue = emergency(from: current, in: eligible, duration: duration) {
            return record(position(target) < position(rescue) ? target : rescue, .bufferLow)
        }
        if position(target) > position(current) {
            var needed =
                isRecoveringFromStall
                ? configuration.minBufferForQualityIncreaseAfterStall : configuration.minBufferForQualityIncrease
            // Media3: the segment being chosen is listed but cannot be buffered yet; it is left out of the media to
            // the edge.
            if let available = availableToLiveEdge {
                let fraction = configuration.bufferedFractionToLiveEdgeForQualityIncrease
                needed = min(needed, fraction * max(0, available - duration))
            }
            // The first choice was a guess (no download measured yet): the first measurement corrects it at once,
            // as hls.js's first fragment does; the buffer rule is for changes of a measured choice.
            let correctsGuess = startedOnGuess && estimator.estimate != nil && switches == 0
            guard bufferedDuration >= needed || correctsGuess else { return record(current, .unchanged) }
            // A rise still under way is waited for (but the start's correction): one switch to where it ends.
            guard correctsGuess || !isEstimateRising else { return record(current, .unchanged) }
            isRecoveringFromStall = false
            return record(target, .bandwidthUp)
        }
        if position(target) < position(current), !canStay(current),
            bufferedDuration < configuration.maxBufferForQualityDecrease
        {
            return record(target, .bandwidthDown)
        }
        return record(current, .unchanged)
    }

    // MARK: - Rules

    var pinnedVariant: Variant? {
        limits.pinnedVariantID.flatMap { id in variants.first { $0.id == id } }
    }

    /// The share of the estimate the target may take with the buffer as last reported: `bandwidthFraction` with an
    /// empty buffer, growing in a straight line to `bandwidthFractionAtFullBuffer` (never above `stayFraction`) at
    /// `maxBufferForQualityDecrease` (dash.js: its buffer rule, BOLA, takes over from its throughput rule as the
    /// buffer grows, and caps a switch up at the rung the throughput sustains). While a stall is recovered from,
    /// `bandwidthFraction`: the stall showed the estimate was too high.
    var upFraction: Double {
        let low = configuration.bandwidthFraction
        let high = min(configuration.bandwidthFractionAtFullBuffer, configuration.stayFraction)
        let end = configuration.maxBufferForQualityDecrease
        guard !isRecoveringFromStall, high > low else { return low }
        guard end > 0 else { return high }
        return low + (high - low) * min(max(bufferedDuration / end, 0), 1)
    }

    /// The highest eligible variant within the budget, else the lowest eligible one; `byAverage`: measured by its
    /// average bit rate where the manifest gives one. The budget is `bandwidthFraction x estimate`; with a larger
    /// `fraction` (a deep buffer, ``upFraction``) and the last 3 downloads known, `fraction` of the lower of the
    /// estimate and the slowest of them (``BandwidthEstimator/slowestRecent``) when that is more: BOLA caps a
    /// switch up at the recent throughput, and the averages remember a faster link for a while after it slowed. A
    /// variant entered so is kept until a download slower than those 3 comes (its bandwidth is within 0.95 of each).
    func target(in eligible: [Variant], byAverage: Bool = false, fraction: Double? = nil) -> Variant {
        var budget = configuration.bandwidthFraction * estimate
        if let fraction, fraction > configuration.bandwidthFraction, let recent = estimator.slowestRecent {
            budget = max(budget, fraction * min(estimate, recent))
        }
        let fitting = eligible.last { Double(byAverage ? $0.averageBandwidth ?? $0.bandwidth : $0.bandwidth) <= budget }
        return fitting ?? eligible.first ?? variants[0]
    }

    /// Whether the estimate still carries `variant` (the stay side of the hysteresis).
    private func canStay(_ variant: Variant) -> Bool {
        Double(variant.bandwidth) <= configuration.stayFraction * estimate
    }

    /// The emergency switch down, when `current`'s next segment would arrive after the buffer runs dry: to the
    /// highest lower variant whose segment would arrive in time. When none would (an empty buffer: a start, a seek,
    /// a reader at the download's edge), switching down saves nothing, and the current variant stays (hls.js
    /// switches down only to a level whose fragment arrives before the buffer starves).
    private func emergency(from current: Variant, in eligible: [Variant], duration: Double) -> Variant? {
        guard duration > 0 else { return nil }
        let estimate = estimate
        func downloadTime(_ variant: Variant) -> Double { Double(variant.bandwidth) * duration / estimate }
        guard downloadTime(current) > bufferedDuration else { return nil }
        let lower = eligible.filter { position($0) < position(current) }
        return lower.last { downloadTime($0) <= bufferedDuration }
    }

    /// When the limits exclude `current`: the highest eligible variant at or below it, else the lowest eligible.
    private func fallback(for current: Variant, in eligible: [Variant]) -> Variant {
        eligible.last { position($0) <= position(current) } ?? eligible.first ?? variants[0]
    }

    /// The rank on the ladder (variants of equal bandwidth keep their manifest order). Variants are told apart by
    /// ``Variant/id`` (comparing whole variants would compare their segment lists).
    func position(_ variant: Variant) -> Int {
        variants.firstIndex { $0.id == variant.id } ?? 0
    }

    mutating func record(_ variant: Variant, _ reason: ABRDecision.Reason) -> ABRDecision {
        let decision = ABRDecision(variant: variant, previous: current, reason: reason)
        if decision.isSwitch { switches += 1 }
        if reason != .unchanged {
            history.appendKeepingNewest(decision, limit: configuration.historyLimit)
        }
        current = variant
        return decision
    }
}
