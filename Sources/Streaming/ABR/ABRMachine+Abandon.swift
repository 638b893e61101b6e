/// hls.js's abandon rule (`AbrController._abandonRulesCheck`): a segment whose download is slower than the buffer
/// can wait for is given up, and the same segment is fetched from a lower variant that arrives in time. Without it a
/// link that drops mid-segment is learned only when that segment ends (a 2 s 1080p segment takes 7 s at 1.5 Mbit/s),
/// and the estimate then comes down one download at a time, one rung per segment.
extension ABRMachine {
    /// A segment of `variantID` still downloading: `bytes` of `expectedBytes` (nil: unknown, taken as the variant's
    /// bandwidth over `duration`) arrived `seconds` after it was asked for, the first of them `receivingSeconds`
    /// before now (nil: as long as `seconds`). The rate is the bytes over the receiving time (hls.js's
    /// `timeStreaming`: a request that waited for a connection or its first byte is not a slow link). Returns the switch to make now (reason `.downloadAbandoned`)
    /// when all of these hold, else nil and the download goes on:
    /// - it has run for more than half the segment's duration (hls.js: `requestDelay > 500 * duration` ms);
    /// - at the rate it shows, the rest would arrive after the buffered media runs out;
    /// - a lower eligible variant's whole segment, at that rate, arrives sooner than the rest would: the highest
    ///   one that arrives before the buffer runs out and within one segment duration (so the link carries it), else
    ///   the lowest;
    /// - that segment takes at most 10 segment durations (hls.js gives up abandoning past that).
    ///
    /// On a switch, the bytes measured so far are an estimate sample (hls.js samples the aborted fragment's), so the
    /// next decisions know the drop at once; when even then the estimate would choose above the new variant, the
    /// averages are started again from that sample alone (hls.js resets its estimator to the new level's bit rate
    /// then; we keep the measurement). Never while pinned.
    public mutating func downloadProgress(
        variantID: String, bytes: Int, expectedBytes: Int?, seconds: Double, receivingSeconds: Double? = nil,
        duration: Double
    ) -> ABRDecision? {
        guard pinnedVariant == nil, duration.isFinite, duration > 0, seconds.isFinite, seconds > duration / 2,
            bytes > 0, let downloading = variants.first(where: { $0.id == variantID })
        else { return nil }
        let receiving = min(max(receivingSeconds ?? seconds, 0.05), seconds)
        let expected = expectedBytes ?? Int(Double(downloading.bandwidth) * duration / 8)
        let rate = Double(bytes) * 8 / receiving
        let rest = Double(max(expected - bytes, 0)) * 8 / rate
        guard rest > bufferedDuration else { return nil }
        let lower = limits.eligible(variants).filter { position($0) < position(downloading) }
        func arrival(_ variant: Variant) -> Double { Double(variant.bandwidth) * duration / rate }
        let window = min(bufferedDuration, duration)
        guard let choice = lower.last(where: { arrival($0) < window }) ?? lower.first,
            arrival(choice) < rest, arrival(choice) <= 10 * duration
        else { return nil }
        estimator.sample(bytes: bytes, seconds: receiving)
        var restarted = false
        if configuration.bandwidthFraction * estimate > Double(choice.bandwidth) {
            estimator.reset()
            estimator.sample(bytes: bytes, seconds: receiving)
            restarted = true
        }
        noteEstimate(restarted: restarted)
        return record(choice, .downloadAbandoned)
    }
}
