import Feed
import PlaybackTesting

/// `playctl-bench run --feed --sweep`: one swipe trace (1 s on each item) replayed on a 3G-like link for a grid of
/// prefetch parameters, each point a new feed over the simulated network under a manual clock (the same controller,
/// players and decoding as over HTTP, in virtual time, the same result every run), audio off.
public struct FeedSweep: Sendable {
    /// One set of parameters.
    public struct Point: Sendable, Hashable {
        /// `PrefetchPolicy.budget`, `.videoCost` and `.inactiveVideoBytes` (in KiB; 0: what the first pictures
        /// need, from the header, `.inactiveVideoFromHeader`).
        public var budget: Int
        public var videoCost: Int
        public var inactiveKiB: Int

        /// The feed's configuration at this point: the defaults but these three, and no audio.
        public var configuration: FeedConfiguration {
            var configuration = FeedConfiguration()
            configuration.audio = false
            configuration.policy.budget = budget
            configuration.policy.videoCost = videoCost
            configuration.policy.inactiveVideoFromHeader = inactiveKiB == 0
            if inactiveKiB > 0 { configuration.policy.inactiveVideoBytes = Int64(inactiveKiB) << 10 }
            return configuration
        }

        /// Whether these are `PrefetchPolicy`'s defaults.
        public var isDefault: Bool {
            let policy = PrefetchPolicy()
            return budget == policy.budget && videoCost == policy.videoCost
                && (policy.inactiveVideoFromHeader
                    ? inactiveKiB == 0 : Int64(inactiveKiB) << 10 == policy.inactiveVideoBytes)
        }

        /// The inactive-video limit as the table prints it.
        var inactiveText: String { inactiveKiB == 0 ? "first pict." : "\(inactiveKiB) KiB" }
    }

    /// One point's figures.
    public struct Result: Sendable {
        /// Nil for the naive baseline.
        public var point: Point?
        public var run: SwipeRun
        /// Wall time the point took.
        public var seconds: Double
    }

    public static let defaultBudgets = [3, 4, 5, 6, 7, 8]
    public static let defaultVideoCosts = [1, 2, 3]
    public static let defaultInactiveKiB = [0, 100, 200, 300]
    /// Swipes per point when not given: about 10 s a point on a 2-CPU machine (1000 swipes: about 50 s).
    public static let defaultSwipes = 200
    /// The link: 1.6 Mbit/s (scripts/netns.sh's 3G-like port), 50 ms before each response's first byte.
    public static let bytesPerSecond = 200_000
    public static let latency = 0.05
    /// Seconds on each item.
    public static let dwell = 1.0

    public var budgets: [Int]
    public var videoCosts: [Int]
    public var inactiveKiB: [Int]
    public var swipes: Int
    public var seed: UInt64

    public init(budgets: [Int]?, videoCosts: [Int]?, inactiveKiB: [Int]?, swipes: Int?, seed: UInt64) {
        self.budgets = budgets ?? Self.defaultBudgets
        self.videoCosts = videoCosts ?? Self.defaultVideoCosts
        self.inactiveKiB = inactiveKiB ?? Self.defaultInactiveKiB
        self.swipes = swipes ?? Self.defaultSwipes
        self.seed = seed
    }

    /// Every point of the grid, budgets first.
    public var points: [Point] {
        budgets.flatMap { budget in
            videoCosts.flatMap { cost in inactiveKiB.map { Point(budget: budget, videoCost: cost, inactiveKiB: $0) } }
        }
    }

    /// Copies of the feed the trace scrolls through, so that it never comes back to an entry a cache has seen
    /// (but for a swipe back).
    public func copies(items: Int) -> Int { swipes / max(items, 1) + 1 }

    /// The trace every point replays.
    public func trace(items: Int) -> SwipeTrace {
        SwipeTrace(seed: seed, swipes: swipes, items: items * copies(items: items), dwell: .fixed(Self.dwell))
    }

    /// Replays the trace for the naive baseline, then for every point, saying each on `progress`.
    public func run(media: FeedMedia, progress: @Sendable (String) -> Void) async -> SweepReport {
        let loadBefore = LoadAverage.oneMinute()
        let trace = trace(items: media.files.count)
        let copies = copies(items: media.files.count)
        var report = SweepReport(sweep: self, media: media)
        var baseline = FeedBench.naiveConfiguration
        baseline.audio = false
        progress("sweep: naive baseline, \(swipes) swipes")
        report.baseline = await Self.replay(
            trace, media: media, copies: copies, configuration: baseline, point: nil)
        for (number, point) in points.enumerated() {
            progress(
                "sweep: point \(number + 1)/\(points.count): budget \(point.budget), video cost \(point.videoCost), "
                    + "inactive \(point.inactiveKiB) KiB")
            report.results.append(
                await Self.replay(
                    trace, media: media, copies: copies, configuration: point.configuration, point: point))
        }
        report.loadAverage = (loadBefore, LoadAverage.oneMinute())
        return report
    }

    static func replay(
        _ trace: SwipeTrace, media: FeedMedia, copies: Int, configuration: FeedConfiguration, point: Point?
    ) async -> Result {
        let started = ProcessRunner.monotonicSeconds()
        let simulation = FeedSimulation(
            media: media, copies: copies, bytesPerSecond: bytesPerSecond, latency: latency,
            configuration: configuration)
        var run = await simulation.replay(trace)
        await simulation.stop()
        run.name =
            point.map { "budget \($0.budget), video cost \($0.videoCost), inactive \($0.inactiveKiB) KiB" }
            ?? "naive"
        return Result(point: point, run: run, seconds: ProcessRunner.monotonicSeconds() - started)
    }
}
