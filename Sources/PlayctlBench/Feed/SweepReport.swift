import Feed
import PlaybackTesting
import PlayctlOutput

/// `bench --feed --sweep`'s results: per grid point, loader impressions per 1000 items, waste and time to first
/// frame, the best point marked; as a table or one JSON object.
public struct SweepReport: Sendable {
    public var sweep: FeedSweep
    public var media: FeedMedia
    /// The naive baseline on the same trace, for reference.
    public var baseline: FeedSweep.Result?
    public var results: [FeedSweep.Result] = []
    public var loadAverage: (before: Double?, after: Double?) = (nil, nil)
    /// The executable that ran the sweep.
    public var playctl = ProcessRunner.currentExecutable()

    init(sweep: FeedSweep, media: FeedMedia) {
        self.sweep = sweep
        self.media = media
    }

    /// The point with the fewest loader impressions per 1000 items; ties go to less waste, then the lower p95 first
    /// frame.
    public var best: FeedSweep.Result? {
        results.min { a, b in Self.rank(a) < Self.rank(b) }
    }

    private static func rank(_ result: FeedSweep.Result) -> (Double, Double, Double) {
        let summary = result.run.summary ?? FeedSummary()
        return (summary.loaderImpressionsPer1000, summary.wasteRatio, result.run.latencies(.all).p95)
    }

    /// Wall time of every point, the baseline included.
    public var seconds: Double { results.reduce(baseline?.seconds ?? 0) { $0 + $1.seconds } }

    // MARK: Text

    /// The report as a table, one string per line.
    public var textLines: [String] {
        var lines = [
            "playctl-bench run --feed --sweep: \(media.folder)/ (\(media.files.count) entries), \(sweep.swipes) swipes "
                + "(seed \(sweep.seed)), \(BenchText.fixed(FeedSweep.dwell, 0)) s on each item, forward, 1 in 10 back",
            "link: the simulated network at 1.6 Mbit/s (200000 B/s, 50 ms before each response) under a manual "
                + "clock: the same FeedController, players and decoding as over HTTP, virtual time, audio off",
            "each point: FeedConfiguration() but for its budget, video cost and inactive-video bytes ('first pict.': "
                + "what the first pictures need, from the header, the default); a new feed, "
                + "cache and link; first frame timed to the clock's 50 ms step (a swipe with none before the next "
                + "counts as 1000 ms; 'shown': the swipes that had one)",
            "\(results.count) points in \(BenchText.fixed(seconds, 0)) s "
                + "(\(BenchText.fixed(seconds / Double(max(results.count + 1, 1)), 1)) s a point); playctl: \(playctl)",
        ]
        if let loadLine = BenchText.loadLine(loadAverage) { lines.append(loadLine) }
        lines.append("")
        let header = ["budget", "video", "inactive", "loaders/1000", "waste", "p50", "p95", "rebuffer", "seconds"]
        lines.append("  " + header.map { $0.rightAligned(13) }.joined())
        let best = self.best
        var rows: [(FeedSweep.Result, String)] = []
        if let baseline { rows.append((baseline, "naive (budget 0, nothing prepared)")) }
        for result in results {
            var mark = ""
            if result.point?.isDefault == true { mark = "defaults" }
            if let best, best.point == result.point { mark += mark.isEmpty ? "<- best" : ", <- best" }
            rows.append((result, mark))
        }
        for (result, mark) in rows {
            let summary = result.run.summary ?? FeedSummary()
            let latencies = result.run.latencies(.all)
            let point = result.point
            let cells = [
                point.map { "\($0.budget)" } ?? "0", point.map { "\($0.videoCost)" } ?? "-",
                point.map(\.inactiveText) ?? "-",
                BenchText.fixed(summary.loaderImpressionsPer1000, 1), Self.shown(result.run),
                BenchText.fixed(summary.wasteRatio * 100, 1) + "%",
                BenchText.milliseconds(latencies.p50), BenchText.milliseconds(latencies.p95),
                BenchText.fixed(summary.rebufferRatio * 100, 1) + "%", BenchText.fixed(result.seconds, 1),
            ]
            lines.append("  " + cells.map { $0.rightAligned(13) }.joined() + (mark.isEmpty ? "" : "  " + mark))
        }
        return lines
    }

    /// The share of swipes whose first frame came before the next swipe (`78.5%`).
    static func shown(_ run: SwipeRun) -> String {
        let count = run.swipes.count
        return BenchText.fixed(Double(count - run.missed(.all)) * 100 / Double(max(count, 1)), 1) + "%"
    }

    // MARK: JSON

    /// One object: the sweep's parameters, `baseline` and `points` (each with its parameters, figures and wall
    /// time), and `best` (its parameters).
    public var json: JSONValue {
        func point(_ result: FeedSweep.Result) -> JSONValue {
            let summary = result.run.summary ?? FeedSummary()
            var fields: [(String, JSONValue)] = []
            if let point = result.point {
                fields += [
                    ("budget", .int(point.budget)), ("videoCost", .int(point.videoCost)),
                    ("inactiveKiB", .int(point.inactiveKiB)), ("isDefault", .bool(point.isDefault)),
                ]
            }
            fields += [
                ("loaderImpressionsPer1000", .double(summary.loaderImpressionsPer1000)),
                ("wasteRatio", .double(summary.wasteRatio)),
                ("rebufferRatio", .double(summary.rebufferRatio)),
                ("firstFrame", FeedReport.json(result.run.latencies(.all))),
                ("noFrame", .int(result.run.missed(.all))),
                ("activations", .int(summary.activations)),
                ("bytesFetched", .int(Int(summary.bytesFetched))),
                ("bytesPlayed", .int(Int(summary.bytesPlayed))),
                ("seconds", .double(result.seconds)),
            ]
            return .object(fields)
        }
        return .object([
            ("folder", .string(media.folder)),
            ("entries", .int(media.files.count)),
            ("swipes", .int(sweep.swipes)),
            ("seed", .int(Int(truncatingIfNeeded: sweep.seed))),
            ("dwellSeconds", .double(FeedSweep.dwell)),
            ("bytesPerSecond", .int(FeedSweep.bytesPerSecond)),
            ("seconds", .double(seconds)),
            ("playctl", .string(playctl)),
            ("loadAverage", FeedReport.json(loadAverage)),
            ("baseline", baseline.map(point) ?? .null),
            ("points", .array(results.map(point))),
            (
                "best",
                best?.point.map {
                    .object([
                        ("budget", .int($0.budget)), ("videoCost", .int($0.videoCost)),
                        ("inactiveKiB", .int($0.inactiveKiB)),
                    ])
                } ?? .null
            ),
        ])
    }
}
