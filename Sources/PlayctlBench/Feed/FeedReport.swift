import Feed
import PlaybackTesting
import PlayctlCLI

/// `bench --feed`'s results (see ``FeedBench``), with the figures held to targets; rendered as a table
/// (`FeedReport+Text.swift`) or one JSON object (`FeedReport+JSON.swift`).
public struct FeedReport: Sendable {
    // MARK: Bounds

    /// A prepared item's first frame: one frame interval at 30 fps.
    public static let preparedBound = 0.033
    /// A cold item's first frame, over mpv's without prefetch (p95s, same link, same run).
    public static let coldBound = 1.0
    /// The item on screen with prefetching around it, over the same without (cold targets, p95s).
    public static let competitionBound = 1.05
    /// Bytes fetched and never played over bytes played, and stalled over watched time (14 s median dwell).
    public static let wasteBound = 0.15
    public static let rebufferBound = 0.005
    /// Loader impressions per 1000 items on the 3G-like link, over the naive baseline's: at least 20% fewer.
    public static let impressionsBound = 0.8

    // MARK: Results

    public var bench: FeedBench
    public var media: FeedMedia
    public var tools: BenchTools
    /// Whether the ports were shaped (scripts/netns.sh could make a namespace).
    public var shaped: Bool
    /// The executable that ran the bench.
    public var playctl = ProcessRunner.currentExecutable()
    /// Trace 1 over 8 Mbit/s: playctl, naive, mpv with and without prefetch.
    public var swipe: [SwipeRun] = []
    /// Trace 2 (jumps, cold targets) over 8 Mbit/s: playctl, naive, mpv without prefetch.
    public var competition: [SwipeRun] = []
    /// Trace 3 (14 s median dwell) over 8 Mbit/s: playctl.
    public var waste: SwipeRun?
    /// Trace 1 over 1.6 Mbit/s: playctl, naive.
    public var cellular: [SwipeRun] = []
    /// The feed the 3G trace scrolled (``FeedMedia/cellularFolder`` unless `--file` named one).
    public var cellularMedia: FeedMedia?
    /// The weak-link trace over 2 Mbit/s: playctl, mpv --prefetch-playlist=yes, playctl with renditions.
    public var weak: [SwipeRun] = []
    /// The HLS feed (``HLSFeedBench``): playctl on HLS at 8 and 1.6 Mbit/s, on 1080p files at 1.6 Mbit/s, mpv.
    public var hls: [SwipeRun] = []
    public var soak: FeedSoakReport?
    /// Waits for an idle link that gave up (another process kept it busy).
    public var busyWaits = 0
    public var loadAverage: (before: Double?, after: Double?) = (nil, nil)

    init(bench: FeedBench, media: FeedMedia, tools: BenchTools, shaped: Bool) {
        self.bench = bench
        self.media = media
        self.tools = tools
        self.shaped = shaped
    }

    /// The run named `name` of `runs`.
    static func run(_ name: String, in runs: [SwipeRun]) -> SwipeRun? { runs.first { $0.name == name } }

    // MARK: Figures

    /// A p95 over another (nil when either is missing or the other is zero).
    static func ratio(_ value: FeedSummary.Latencies?, _ other: FeedSummary.Latencies?) -> Double? {
        guard let value, let other, value.count > 0, other.count > 0, other.p95 > 0 else { return nil }
        return value.p95 / other.p95
    }

    /// Every figure held to a target, in report order.
    public var targets: [FeedTarget] {
        let prepared = Self.run("playctl", in: swipe)?.latencies(.prepared)
        let mpvCold = Self.run(MPVReplay.name(prefetch: false), in: competition)
        var targets = [
            FeedTarget(
                key: "preparedFirstFrameP95", name: "prepared items, first frame p95 at 8 Mbit/s",
                value: prepared.flatMap { $0.count > 0 ? $0.p95 : nil }, bound: Self.preparedBound, unit: .seconds),
            FeedTarget(
                key: "coldFirstFrameP95OverMPV",
                name: "cold items (trace 2), first frame p95 over mpv --prefetch-playlist=no's at 8 Mbit/s",
                value: Self.ratio(
                    Self.run("playctl", in: competition)?.latencies(.all), mpvCold?.latencies(.all)),
                bound: Self.coldBound, unit: .ratio),
            FeedTarget(
                key: "prefetchCompetitionP95Ratio",
                name: "cold item on screen, first frame p95 with prefetching around it over without",
                value: Self.ratio(
                    Self.run("playctl", in: competition)?.latencies(.all),
                    Self.run("naive", in: competition)?.latencies(.all)),
                bound: Self.competitionBound, unit: .ratio),
            FeedTarget(
                key: "wasteRatio", name: "waste (bytes fetched and never played / bytes played), 14 s median dwell",
                value: waste?.summary?.wasteRatio, bound: Self.wasteBound, unit: .fraction),
            FeedTarget(
                key: "rebufferRatio", name: "rebuffer ratio (stalled / watched), 14 s median dwell",
                value: waste?.summary?.rebufferRatio, bound: Self.rebufferBound, unit: .fraction),
            FeedTarget(
                key: "loaderImpressionsOverNaive",
                name: "loader impressions per 1000 items at 1.6 Mbit/s over the naive baseline's",
                value: impressionsRatio, bound: Self.impressionsBound, unit: .ratio),
        ]
        targets += weakTargets
        targets += hlsTargets
        if let soak {
            targets += [
                FeedTarget(
                    key: "soakPeakResidentBytes", name: "soak: peak resident memory",
                    value: Double(soak.peakResidentBytes), bound: Double(FeedSoakReport.peakBound), unit: .bytes),
                FeedTarget(
                    key: "soakResidentGrowthBytes", name: "soak: resident memory growth after the warm-up",
                    value: Double(soak.growth), bound: Double(FeedSoakReport.growthBound), unit: .bytes),
                FeedTarget(
                    key: "soakExtraDescriptors", name: "soak: file descriptors open at the end beyond the start",
                    value: Double(abs(soak.endDescriptors - soak.startDescriptors)), bound: 0, unit: .count),
                FeedTarget(
                    key: "soakExtraThreads", name: "soak: threads at the end beyond the start",
                    value: Double(max(soak.endThreads - soak.startThreads, 0)), bound: 0, unit: .count),
            ]
        }
        return targets
    }

    /// playctl's loader impressions per 1000 items at 1.6 Mbit/s over the naive baseline's.
    public var impressionsRatio: Double? {
        guard let playctl = Self.run("playctl", in: cellular)?.summary,
            let naive = Self.run("naive", in: cellular)?.summary, naive.loaderImpressionsPer1000 > 0
        else { return nil }
        return playctl.loaderImpressionsPer1000 / naive.loaderImpressionsPer1000
    }

    /// Whether the executable measured looks like a debug build.
    public var measuresDebugBuild: Bool { playctl.contains("/debug/") }
}
