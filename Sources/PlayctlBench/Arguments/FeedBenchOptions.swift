import CommandLineKit

/// `playctl-bench run --feed`'s options, a group of `BenchCommand`'s, read into checked values.
struct FeedBenchOptions: ParsableArguments {
    /// The names `--parts` takes: `FeedBench.Part`'s raw values, written out because the declarations here import
    /// only CommandLineKit (the argument fuzzer builds them on it alone); a test checks the two agree.
    static let partNames = ["soak", "swipe", "jump", "waste", "3g", "weak", "hls"]

    /// What each needs, for the command holding the group at `group`.
    static func constraints<Command>(_ group: KeyPath<Command, FeedBenchOptions>) -> [OptionRule<Command>] {
        let feed = group.appending(path: \.$feed)
        let sweep = group.appending(path: \.$sweep)
        return [
            .requires(sweep, feed), .requires(group.appending(path: \.$swipes), feed),
            .requires(group.appending(path: \.$wasteSwipes), feed),
            .requires(group.appending(path: \.$soakSwipes), feed),
            .requires(group.appending(path: \.$seed), feed), .requires(group.appending(path: \.$partList), feed),
            .requires(group.appending(path: \.$budgetList), sweep),
            .requires(group.appending(path: \.$videoCostList), sweep),
            .requires(group.appending(path: \.$inactiveKiBList), sweep),
        ]
    }

    /// Whether `--feed` was given, and `--sweep`.
    @Flag(
        help: """
            Measure playctl's feed (FeedController) against a naive player and mpv, scrolling the 100-item feed of \
            scripts/make-feed-media.sh over scripts/netns.sh's shaped loopback: swipe to first frame, prefetch \
            competition, waste and rebuffering, loader impressions on a 3G-like link, a weak link, a feed of HLS \
            ladders, and a 1000-swipe soak. Run it through scripts/bench.sh --feed (about 25 minutes; \
            docs/feed-bench.md).
            """)
    var feed: Bool
    @Flag(
        help: """
            With --feed, instead: replay one trace (1 s per item) on a simulated 1.6 Mbit/s link under a manual \
            clock for a grid of prefetch parameters, printing loader impressions per 1000 items, waste and first \
            frame for each, the best marked. A point takes about 10 s at the default 200 swipes on 2 CPUs (the 72 \
            points of the default grid about 12 minutes; 1000 swipes about 50 s a point). Needs the feed, not the \
            server.
            """)
    var sweep: Bool
    /// The counts given (nil: the defaults).
    @Option(
        placeholder: "N",
        help: "Swipes of the --feed traces 1 and 2 (default 50), weak and hls (35), or of the --sweep trace (200).",
        check: .range(1...1_000_000, "an integer from 1 to 1000000"))
    var swipes: Int?
    @Option(
        placeholder: "N", help: "Swipes of the --feed waste trace, 14 s median dwell (default 16).",
        check: .range(1...1_000_000, "an integer from 1 to 1000000"))
    var wasteSwipes: Int?
    @Option(
        placeholder: "N", help: "Swipes of the --feed soak (default 1000).",
        check: .range(10...1_000_000, "an integer from 10 to 1000000"))
    var soakSwipes: Int?
    @Option(
        placeholder: "N", help: "The --feed traces' seed (default 1).",
        check: .range(0...1_000_000, "an integer from 0 to 1000000"))
    var seed: Int?
    @Option(
        name: "parts", placeholder: "LIST",
        help: """
            The parts of --feed to run, comma-separated: soak, swipe (trace 1), jump (trace 2), waste (trace 3), \
            3g (trace 1 at 1.6 Mbit/s), weak (35 swipes, 1.5 s dwells at 2 Mbit/s, with and without renditions), \
            hls (35 swipes every ~2 s of a feed of HLS ladders at 8 and 1.6 Mbit/s, and of the same feed as 1080p \
            files at 1.6 Mbit/s); default all. The others' targets read "not measured".
            """)
    var partList: String?
    @Option(
        name: "budgets", placeholder: "LIST",
        help: "The --sweep's total budgets, comma-separated (default 3,4,5,6,7,8).")
    var budgetList: String?
    @Option(name: "video-costs", placeholder: "LIST", help: "The --sweep's video costs (default 1,2,3).")
    var videoCostList: String?
    @Option(
        name: "inactive-kib", placeholder: "LIST",
        help: """
            The --sweep's bytes fetched ahead of an inactive video, in KiB; 0: what its first pictures need, read \
            from its header (the default policy). Default 0,100,200,300.
            """)

    /// In the order help lists them.)
    var inactiveKiBList: String?

    /// The parts named by `--parts` (nil: all).
    var parts: [String]? { partList.map(Self.names) }
    /// The lists given (nil: the defaults).
    var budgets: [Int]? { budgetList.map(Self.integers) }
    var videoCosts: [Int]? { videoCostList.map(Self.integers) }
    var inactiveKiB: [Int]? { inactiveKiBList.map(Self.integers) }

    /// Checks the lists, in declaration order.
    /// - Throws: `UsageError` for a `--parts` name the bench does not know, or a list that is not comma-separated
    ///   integers in range.
    func validate() throws(UsageError) {
        if let parts, parts.isEmpty || !parts.allSatisfy(Self.partNames.contains) {
            let known = Self.partNames.joined(separator: ", ")
            throw $partList.invalidValue(expected: "names from \(known), comma-separated")
        }
        try Self.check(budgetList, $budgetList, least: 0)
        try Self.check(videoCostList, $videoCostList, least: 1)
        try Self.check(inactiveKiBList, $inactiveKiBList, least: 0)
    }

    private static func check(_ text: String?, _ option: ParsedValue<String?>, least: Int) throws(UsageError) {
        guard let text else { return }
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !values.isEmpty, values.allSatisfy({ $0.map { $0 >= least && $0 <= 100_000 } ?? false }) else {
            throw option.invalidValue(expected: "integers from \(least) to 100000, comma-separated")
        }
    }

    private static func names(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    private static func integers(_ text: String) -> [Int] {
        text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) }
    }
}
