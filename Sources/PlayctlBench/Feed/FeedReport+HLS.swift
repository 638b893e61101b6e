import Feed
import PlayctlOutput

/// The HLS feed's figures (``HLSFeedBench``): its targets and its section of the table.
extension FeedReport {
    /// Bounds of the HLS feed: prepared items' first frame at 8 Mbit/s (one frame at 30 fps), and loader impressions
    /// per 1000 items at 1.6 Mbit/s over the same feed's as 1080p files: fewer (below 1.00x).
    public static let hlsPreparedBound = 0.033
    public static let hlsImpressionsBound = 0.99

    /// The HLS feed's loader impressions per 1000 items at 1.6 Mbit/s over the 1080p files' (nil without both, or
    /// when the files' are 0).
    var hlsImpressionsOverProgressive: Double? {
        guard let hls = Self.run(HLSFeedBench.hls16, in: hls)?.summary,
            let files = Self.run(HLSFeedBench.progressive16, in: self.hls)?.summary, files.loaderImpressionsPer1000 > 0
        else { return nil }
        return hls.loaderImpressionsPer1000 / files.loaderImpressionsPer1000
    }

    /// The HLS feed's targets (none without `--parts hls`'s runs).
    var hlsTargets: [FeedTarget] {
        guard !hls.isEmpty else { return [] }
        let prepared = Self.run(HLSFeedBench.hls8, in: hls).map { $0.latencies(.prepared) }
        return [
            FeedTarget(
                key: "hlsPreparedFirstFrameP95", name: "HLS feed at 8 Mbit/s: prepared items, first frame p95",
                value: prepared.flatMap { $0.count > 0 ? $0.p95 : nil }, bound: Self.hlsPreparedBound,
                unit: .seconds),
            FeedTarget(
                key: "hlsImpressionsOverProgressive",
                name: "HLS feed at 1.6 Mbit/s: loader impressions per 1000 over the same feed as 1080p files' (fewer)",
                value: hlsImpressionsOverProgressive, bound: Self.hlsImpressionsBound, unit: .ratio),
        ]
    }

    /// The HLS feed's section of the table.
    var hlsSection: [String] {
        guard !hls.isEmpty else { return [] }
        var lines = [
            "",
            "HLS feed: \(bench.hlsSwipes) swipes every ~2 s (1.68-2.38 s) over \(HLSFeedBench.entryCount) entries, "
                + "each the fMP4 ladder (360p 0.8, 540p 1.6, 720p 3, 1080p 5 Mbit/s; 12 s, 2 s segments) under its "
                + "own URLs; the 1080p files: the ladder's 1080p MP4 under \(HLSFeedBench.entryCount) URLs; "
                + "playctl: FeedConfiguration(), no estimate at the start of each run",
        ]
        lines += Self.latencyTable(hls)
        for run in hls {
            var parts: [String] = []
            if let summary = run.summary {
                parts.append(
                    "loader impressions \(BenchText.fixed(summary.loaderImpressionsPer1000, 1)) per 1000 "
                        + "(\(summary.loaderImpressions) of \(summary.activations))")
                parts.append("rebuffer \(BenchText.fixed(summary.rebufferRatio * 100, 2))%")
                parts.append("\(summary.stalls) stalls")
            }
            if let segments = run.segmentsByRendition {
                let counts = HLSFeedBench.renditionNames.compactMap { name in
                    segments[name].map { "\(name) \($0)" }
                }
                let what = run.name.contains("files") ? "responses" : "segments"
                parts.append("\(what) " + (counts.isEmpty ? "none" : counts.joined(separator: ", ")))
            }
            if let bytes = run.bytesOnWire {
                parts.append("\(BenchText.fixed(Double(bytes) / 1_000_000, 2)) MB sent")
            }
            if !parts.isEmpty { lines.append("  \(run.name): " + parts.joined(separator: "; ")) }
        }
        return lines
    }
}
