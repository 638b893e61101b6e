import PlaybackTesting
import PlayctlOutput

/// What `bench --posters` measured, as a table or one JSON object.
public struct PosterReport: Sendable {
    /// First-frame posters of one source: wall times of each command's runs and the pipeline's in-process times.
    public struct FirstFrame: Sendable {
        public var label: String
        public var source: String
        public var playctl: [Double]
        public var ffmpeg: [Double]
        public var pipeline: [Double]
    }

    public struct Batch: Sendable {
        public var requests: Int
        public var distinctKeys: Int
        public var fetches: Int
        public var joined: Int
        public var cacheHits: Int
        public var wallSeconds: Double
        public var peakRSSKiB: Int
        /// A single poster's process: the fixed overhead the batch's memory is judged against.
        public var singlePeakRSSKiB: Int
        public var cacheLimitBytes: Int
        public var totalP50Ms: Double
        public var totalP95Ms: Double

        /// Peak memory within the cache limit over a single poster's process.
        public var memoryWithinBound: Bool { (peakRSSKiB - singlePeakRSSKiB) * 1024 <= cacheLimitBytes }
    }

    public var runs: Int
    public var firstFrame: [FirstFrame]
    public var batch: Batch
    public var loadAverage: (before: Double?, after: Double?)

    /// Nearest-rank percentile of `values`, in seconds.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(max(Int((p * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)]
    }

    /// The report as lines of text.
    public var textLines: [String] {
        var lines = ["Posters: first frame of a 720p H.264 clip at 320x180, \(runs) runs each (p50 / p95)"]
        if let load = BenchText.loadLine(loadAverage) { lines.append(load) }
        for part in firstFrame {
            let p = { (values: [Double], q: Double) in BenchText.milliseconds(Self.percentile(values, q)) }
            lines.append("  \(part.label): \(part.source)")
            lines.append("    playctl poster (process)   \(p(part.playctl, 0.5)) / \(p(part.playctl, 0.95))")
            lines.append("    ffmpeg -frames:v 1 -vf scale \(p(part.ffmpeg, 0.5)) / \(p(part.ffmpeg, 0.95))")
            lines.append("    pipeline, in process       \(p(part.pipeline, 0.5)) / \(p(part.pipeline, 0.95))")
            let ratio50 = Self.percentile(part.playctl, 0.5) / Self.percentile(part.ffmpeg, 0.5)
            let ratio95 = Self.percentile(part.playctl, 0.95) / Self.percentile(part.ffmpeg, 0.95)
            lines.append(
                "    playctl / ffmpeg: p50 \(BenchText.fixed(ratio50, 2))x, p95 \(BenchText.fixed(ratio95, 2))x")
        }
        let b = batch
        lines.append(
            "Batch: \(b.requests) requests over \(b.distinctKeys) distinct keys in \(BenchText.fixed(b.wallSeconds, 2)) s: "
                + "\(b.fetches) fetches (\(b.fetches == b.distinctKeys ? "= distinct keys" : "NOT the distinct keys")), "
                + "\(b.joined) joined in flight, \(b.cacheHits) cache hits; total p50 \(BenchText.fixed(b.totalP50Ms, 1)) ms, "
                + "p95 \(BenchText.fixed(b.totalP95Ms, 1)) ms")
        lines.append(
            "  peak memory \(b.peakRSSKiB / 1024) MB; a single poster's process \(b.singlePeakRSSKiB / 1024) MB; cache limit "
                + "\(b.cacheLimitBytes >> 20) MB: \(b.memoryWithinBound ? "within" : "OVER") the limit plus that overhead"
        )
        return lines
    }

    /// The report as one JSON object.
    public var json: JSONValue {
        .object([
            ("runs", .int(runs)),
            (
                "firstFrame",
                .array(
                    firstFrame.map { part in
                        .object([
                            ("link", .string(part.label)), ("source", .string(part.source)),
                            ("playctlP50", .double(Self.percentile(part.playctl, 0.5))),
                            ("playctlP95", .double(Self.percentile(part.playctl, 0.95))),
                            ("ffmpegP50", .double(Self.percentile(part.ffmpeg, 0.5))),
                            ("ffmpegP95", .double(Self.percentile(part.ffmpeg, 0.95))),
                            ("pipelineP50", .double(Self.percentile(part.pipeline, 0.5))),
                            ("pipelineP95", .double(Self.percentile(part.pipeline, 0.95))),
                        ])
                    })
            ),
            (
                "batch",
                .object([
                    ("requests", .int(batch.requests)), ("distinctKeys", .int(batch.distinctKeys)),
                    ("fetches", .int(batch.fetches)), ("joined", .int(batch.joined)),
                    ("cacheHits", .int(batch.cacheHits)), ("wallSeconds", .double(batch.wallSeconds)),
                    ("peakRSSKiB", .int(batch.peakRSSKiB)), ("singlePeakRSSKiB", .int(batch.singlePeakRSSKiB)),
                    ("cacheLimitBytes", .int(batch.cacheLimitBytes)),
                    ("memoryWithinBound", .bool(batch.memoryWithinBound)),
                    ("totalP50Ms", .double(batch.totalP50Ms)), ("totalP95Ms", .double(batch.totalP95Ms)),
                ])
            ),
        ])
    }
}
