import CommandLineKit

/// `bench --feed`'s options, declared for `BenchCommand` and read into checked values.
struct FeedBenchOptions: Sendable, Equatable {
    static let feed = Flag(
        "feed",
        help: """
            Measure playctl's feed (FeedController) against a naive player and mpv, scrolling the 100-item feed of \
            scripts/make-feed-media.sh over scripts/netns.sh's shaped loopback: swipe to first frame, prefetch \
            competition, waste and rebuffering, loader impressions on a 3G-like link, and a 1000-swipe soak. \
            Run it through scripts/bench.sh --feed (about 20 minutes; docs/feed-bench.md).
            """)
    static let sweep = Flag(
        "sweep",
        help: """
            With --feed, instead: replay one trace (1 s per item) on a simulated 1.6 Mbit/s link under a manual \
            clock for a grid of prefetch parameters, printing loader impressions per 1000 items, waste and first \
            frame for each, the best marked. A point takes about 10 s at the default 200 swipes on 2 CPUs (the 72 \
            points of the default grid about 12 minutes; 1000 swipes about 50 s a point). Needs the feed, not the \
            server.
            """)
    static let swipes = Option<Int>(
        "swipes", placeholder: "N",
        help: "Swipes of the --feed traces 1 and 2 (default 50), or of the --sweep trace (default 200).")
    static let wasteSwipes = Option<Int>(
        "waste-swipes", placeholder: "N", help: "Swipes of the --feed waste trace, 14 s median dwell (default 16).")
    static let soakSwipes = Option<Int>(
        "soak-swipes", placeholder: "N", help: "Swipes of the --feed soak (default 1000).")
    static let seed = Option<Int>("seed", placeholder: "N", help: "The --feed traces' seed (default 1).")
    static let parts = Option<String>(
        "parts", placeholder: "LIST",
        help: """
            The parts of --feed to run, comma-separated: soak, swipe (trace 1), jump (trace 2), waste (trace 3), \
            3g (trace 1 at 1.6 Mbit/s); default all. The others' targets read "not measured".
            """)
    static let budgets = Option<String>(
        "budgets", placeholder: "LIST", help: "The --sweep's total budgets, comma-separated (default 3,4,5,6,7,8).")
    static let videoCosts = Option<String>(
        "video-costs", placeholder: "LIST", help: "The --sweep's video costs (default 1,2,3).")
    static let inactiveKiB = Option<String>(
        "inactive-kib", placeholder: "LIST",
        help: """
            The --sweep's bytes fetched ahead of an inactive video, in KiB; 0: what its first pictures need, read \
            from its header (the default policy). Default 0,100,200,300.
            """)

    /// In the order help lists them.
    static let declarations: [any OptionDeclaration] = [
        feed, sweep, swipes, wasteSwipes, soakSwipes, seed, parts, budgets, videoCosts, inactiveKiB,
    ]
    /// What each needs.
    static let constraints: [OptionConstraint] = [
        .requires(sweep, feed), .requires(swipes, feed), .requires(wasteSwipes, feed), .requires(soakSwipes, feed),
        .requires(seed, feed), .requires(parts, feed), .requires(budgets, sweep), .requires(videoCosts, sweep),
        .requires(inactiveKiB, sweep),
    ]

    /// Whether `--feed` was given, and `--sweep`.
    let feed: Bool
    let sweep: Bool
    /// The counts and lists given (nil: the defaults).
    let swipes: Int?
    let wasteSwipes: Int?
    let soakSwipes: Int?
    let seed: Int?
    /// The names `--parts` takes: `FeedBench.Part`'s raw values, written out because the declarations here import
    /// only CommandLineKit (the argument fuzzer builds them on it alone); a test checks the two agree.
    static let partNames = ["soak", "swipe", "jump", "waste", "3g"]

    /// The parts named by `--parts` (nil: all).
    let parts: [String]?
    let budgets: [Int]?
    let videoCosts: [Int]?
    let inactiveKiB: [Int]?

    /// Reads the options.
    /// - Throws: `UsageError` for a count below 1 (the soak: 10), a negative seed, or a list that is not
    ///   comma-separated integers in range.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        feed = arguments[Self.feed]
        sweep = arguments[Self.sweep]
        swipes = try Self.count(arguments, Self.swipes, least: 1)
        wasteSwipes = try Self.count(arguments, Self.wasteSwipes, least: 1)
        soakSwipes = try Self.count(arguments, Self.soakSwipes, least: 10)
        seed = try Self.count(arguments, Self.seed, least: 0)
        parts = try Self.names(arguments, Self.parts, among: Self.partNames)
        budgets = try Self.list(arguments, Self.budgets, least: 0)
        videoCosts = try Self.list(arguments, Self.videoCosts, least: 1)
        inactiveKiB = try Self.list(arguments, Self.inactiveKiB, least: 0)
    }

    private static func count(
        _ arguments: ParsedArguments, _ option: Option<Int>, least: Int
    ) throws(UsageError) -> Int? {
        guard let value = try arguments[option] else { return nil }
        guard value >= least && value <= 1_000_000 else {
            throw arguments.invalidValue(
                option, value: String(value), expected: "an integer from \(least) to 1000000")
        }
        return value
    }

    private static func names(
        _ arguments: ParsedArguments, _ option: Option<String>, among known: [String]
    ) throws(UsageError) -> [String]? {
        guard let text = arguments[option] else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy(known.contains) else {
            throw arguments.invalidValue(
                option, value: text, expected: "names from \(known.joined(separator: ", ")), comma-separated")
        }
        return names
    }

    private static func list(
        _ arguments: ParsedArguments, _ option: Option<String>, least: Int
    ) throws(UsageError) -> [Int]? {
        guard let text = arguments[option] else { return nil }
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !values.isEmpty, values.allSatisfy({ $0.map { $0 >= least && $0 <= 100_000 } ?? false }) else {
            throw arguments.invalidValue(
                option, value: text, expected: "integers from \(least) to 100000, comma-separated")
        }
        return values.compactMap { $0 }
    }
}
