import Feed
import Foundation
import PlaybackTesting

/// `playctl-bench run --feed`: playctl's feed (`FeedController`, default configuration) against a naive player and
/// mpv, scrolling the generated 100-item feed (scripts/make-feed-media.sh) served by nginx on scripts/netns.sh's
/// shaped loopback, in one run:
///
/// 1. **Swipe to first frame at 8 Mbit/s**: one seeded trace (a swipe every ~2 s, mostly forward, 1 in 10 back)
///    replayed in real time by playctl, by the naive baseline (``naiveConfiguration``: one item at a time, loaded on
///    the swipe), and by mpv with `--prefetch-playlist=yes` and `=no` (``MPVReplay``).
/// 2. **Cold items and prefetch competition**: a trace of jumps 6-9 items ahead (outside the prefetch window), each
///    target's cached bytes dropped before its swipe, so every item starts cold: playctl with the default
///    prefetching running around it, the naive configuration (none), and mpv without prefetch (it keeps nothing of
///    a playlist entry it left). playctl's p95 against mpv's is the cold-item figure; against the naive one's, what
///    the prefetches cost the item on screen.
/// 3. **Waste and rebuffering**: a trace with a 14 s median dwell, in real time at 8 Mbit/s.
/// 4. **Loader impressions on the 3G-like link** (1.6 Mbit/s): trace 1 again, playctl against the naive baseline.
/// 5. **Weak link** (``WeakLinkBench``): 35 swipes with 1.5 s dwells at 2 Mbit/s, playctl against mpv, and playctl
///    with renditions.
/// 6. **HLS feed** (``HLSFeedBench``): a feed of HLS ladders, a swipe every ~2 s, at 8 and at 1.6 Mbit/s, and the
///    same feed as single 1080p files at 1.6 Mbit/s; mpv on the HLS feed at 8 Mbit/s.
/// 7. **Soak** (``FeedSoak``, first, so that the process's peak memory is the feed's): 1000 short swipes over the
///    simulated network under a manual clock.
public struct FeedBench: Sendable {
    /// The naive baseline: no prefetch budget (only the item on screen loads), no prepared next item, a pool of 2
    /// (the least the controller takes; one player is ever used). Otherwise the defaults.
    public static var naiveConfiguration: FeedConfiguration {
        var configuration = FeedConfiguration()
        configuration.poolSize = 2
        configuration.policy.budget = 0
        configuration.policy.cellularBudget = 0
        configuration.policy.preparesNext = false
        return configuration
    }

    public static let defaultSwipes = 50
    public static let defaultWasteSwipes = 16
    public static let defaultSoakSwipes = 1000
    public static let defaultSeed: UInt64 = 1

    /// ~2 s on each item (1.68 to 2.38 s), and a 14 s median (7 to 28 s).
    public static let swipeDwell = SwipeTrace.Dwell.around(median: 2, spread: 0.25)
    public static let wasteDwell = SwipeTrace.Dwell.around(median: 14, spread: 1)
    /// Trace 2's jumps: beyond the prefetch window (4 ahead).
    public static let jump = 6...9

    /// The parts of the run, by the names `--parts` takes.
    public enum Part: String, Sendable, CaseIterable {
        case soak, swipe, jump, waste
        case cellular = "3g"
        case weak
        case hls
    }

    /// The feed folder of the served media (nil: `feed`).
    public var folder: String?
    /// The parts run (all by default); the targets of the others read "not measured".
    public var parts = Set(Part.allCases)
    public var swipes: Int
    public var wasteSwipes: Int
    public var soakSwipes: Int
    public var seed: UInt64
    /// Swipes of the weak-link trace: `--swipes` when given, else 35.
    public var weakSwipes: Int
    /// Swipes of the HLS feed's trace: `--swipes` when given, else 35.
    public var hlsSwipes: Int

    public init(folder: String?, swipes: Int?, wasteSwipes: Int?, soakSwipes: Int?, seed: UInt64?) {
        self.folder = folder
        self.swipes = swipes ?? Self.defaultSwipes
        weakSwipes = swipes ?? WeakLinkBench.defaultSwipes
        hlsSwipes = swipes ?? HLSFeedBench.defaultSwipes
        self.wasteSwipes = wasteSwipes ?? Self.defaultWasteSwipes
        self.soakSwipes = soakSwipes ?? Self.defaultSoakSwipes
        self.seed = seed ?? Self.defaultSeed
    }

    /// Why the bench cannot run here: it needs the server scripts/netns.sh starts (nil when it runs).
    public static var unavailableReason: String? {
        guard TestHTTPServer.base == nil || TestHTTPServer.root == nil else { return nil }
        return "bench --feed measures over the test HTTP server on a shaped loopback, which is not running "
            + "(PLAYCTL_HTTP is not set): run it through scripts/bench.sh --feed"
    }

    /// The traces, from the seed.
    public func traces(items: Int) -> (swipe: SwipeTrace, jump: SwipeTrace, waste: SwipeTrace) {
        (
            SwipeTrace(seed: seed, swipes: swipes, items: items, dwell: Self.swipeDwell),
            SwipeTrace(seed: seed &+ 1, swipes: swipes, items: items, dwell: Self.swipeDwell, jump: Self.jump),
            SwipeTrace(seed: seed &+ 2, swipes: wasteSwipes, items: items, dwell: Self.wasteDwell)
        )
    }

    /// Measures everything, saying each step on `progress`.
    /// - Throws: `BenchFailure` when the server or the feed is missing, or mpv fails.
    public func run(progress: @escaping @Sendable (String) -> Void) async throws(BenchFailure) -> FeedReport {
        if let reason = Self.unavailableReason { throw .failed(reason) }
        let loadBefore = LoadAverage.oneMinute()
        let media = try FeedMedia.load(folder)
        let tools = try BenchTools.find(progress: progress)
        let mpv = tools.mpv ?? "mpv"
        if tools.mpv == nil, !parts.isDisjoint(with: [.swipe, .jump, .weak]) {
            throw .failed("mpv is not installed: bench --feed compares against it")
        }
        let quiet = LinkQuiet.find(shaped: TestHTTPServer.isShaped)
        let traces = traces(items: media.files.count)
        var report = FeedReport(bench: self, media: media, tools: tools, shaped: TestHTTPServer.isShaped)

        if parts.contains(.soak) {
            progress("soak: \(soakSwipes) swipes over the simulated network, manual clock")
            report.soak = await FeedSoak(swipes: soakSwipes, seed: seed &+ 3).run(media: media)
        }

        let link8 = TestHTTPServer.Link.mbit8
        let entries8 = media.entries(base: Self.base(link8))
        let urls8 = entries8.map(\.url)
        for (name, configuration) in [("playctl", FeedConfiguration()), ("naive", Self.naiveConfiguration)]
        where parts.contains(.swipe) {
            progress("swipe trace over 8 Mbit/s: \(name), \(swipes) swipes (\(Int(traces.swipe.duration)) s)")
            quiet.wait()
            report.swipe.append(
                await FeedReplay.run(name, trace: traces.swipe, entries: entries8, configuration: configuration))
        }
        for prefetch in [true, false] where parts.contains(.swipe) {
            progress("swipe trace over 8 Mbit/s: \(MPVReplay.name(prefetch: prefetch))")
            quiet.wait()
            report.swipe.append(
                try await Self.onThread { () throws(BenchFailure) in
                    try MPVReplay.run(mpv: mpv, urls: urls8, prefetch: prefetch, trace: traces.swipe)
                })
        }
        for (name, configuration) in [("playctl", FeedConfiguration()), ("naive", Self.naiveConfiguration)]
        where parts.contains(.jump) {
            progress("jump trace over 8 Mbit/s (every target cold): \(name)")
            quiet.wait()
            report.competition.append(
                await FeedReplay.run(
                    name, trace: traces.jump, entries: entries8, configuration: configuration, dropsTargets: true))
        }
        if parts.contains(.jump) {
            progress("jump trace over 8 Mbit/s (every target cold): \(MPVReplay.name(prefetch: false))")
            quiet.wait()
            report.competition.append(
                try await Self.onThread { () throws(BenchFailure) in
                    try MPVReplay.run(mpv: mpv, urls: urls8, prefetch: false, trace: traces.jump)
                })
        }
        if parts.contains(.waste) {
            progress("waste trace over 8 Mbit/s: \(wasteSwipes) swipes, 14 s median (\(Int(traces.waste.duration)) s)")
            quiet.wait()
            report.waste = await FeedReplay.run(
                "playctl", trace: traces.waste, entries: entries8, configuration: FeedConfiguration())
        }

        if parts.contains(.cellular) {
            // The feed's 3G rendition (the folder given with --file otherwise), on trace 1's swipes.
            let media3G = folder == nil ? try FeedMedia.load(nil, default: FeedMedia.cellularFolder) : media
            let trace = self.traces(items: media3G.files.count).swipe
            let entries3G = media3G.entries(base: Self.base(.cellular3G))
            report.cellularMedia = media3G
            for (name, configuration) in [("playctl", FeedConfiguration()), ("naive", Self.naiveConfiguration)] {
                progress("swipe trace over 1.6 Mbit/s (3G-like, \(media3G.folder)/): \(name)")
                quiet.wait()
                report.cellular.append(
                    await FeedReplay.run(name, trace: trace, entries: entries3G, configuration: configuration))
            }
        }
        if parts.contains(.weak) {
            let weak = WeakLinkBench(seed: seed, swipes: weakSwipes, renditions: folder == nil)
            report.weak = try await weak.run(
                media: media, mpv: mpv, quiet: quiet, progress: progress)
        }
        if parts.contains(.hls) {
            report.hls = try await HLSFeedBench(seed: seed, swipes: hlsSwipes).run(
                mpv: tools.mpv, quiet: quiet, progress: progress)
        }
        report.busyWaits = quiet.busyWaits
        report.loadAverage = (loadBefore, LoadAverage.oneMinute())
        return report
    }

    /// `http://127.0.0.1:18008`.
    static func base(_ link: TestHTTPServer.Link) -> String {
        "\(TestHTTPServer.base ?? "http://127.0.0.1"):\(link.rawValue)"
    }

    /// Runs blocking `work` on a thread of its own (never on one of Swift concurrency's few threads).
    static func onThread<T: Sendable>(
        _ work: @escaping @Sendable () throws(BenchFailure) -> T
    ) async throws(BenchFailure) -> T {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, BenchFailure>, Never>) in
            Thread.detachNewThread {
                done.resume(returning: Result { () throws(BenchFailure) -> T in try work() })
            }
        }
        return try result.get()
    }
}
