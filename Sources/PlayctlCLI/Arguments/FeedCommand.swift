import CommandLineKit

/// `playctl feed MANIFEST [--swipes N] [--dwell SEC] [--seed S] [--script FILE] [--network PROFILE] [--pool N]
/// [--json] [--no-audio] [--cache-dir DIR --cache-size BYTES]`: what it accepts. It runs in `Commands/Feed/`.
struct FeedCommand: ParsableCommand {
    /// `--network`: what the link is like, as the platform would report it (the Feed module's `NetworkProfile`).
    enum Network: String, CaseIterable, ArgumentValue {
        case unconstrained, cellular, constrained
    }

    static let manifest = Argument<String>(
        "MANIFEST",
        help: """
            A JSON file listing the feed's entries ({"entries": [{"url": .., "kind": "video"|"image"}, ..]}, or \
            the array alone), or a folder of media files (sorted by name).
            """)
    static let swipes = Option<Int>(
        "swipes", placeholder: "N",
        help: "Swipes forward after the first item, stopping at the last one (default 20).")
    static let dwell = Option<Double>(
        "dwell", placeholder: "SEC",
        help: "Typical seconds on an item; each dwell is drawn around it, 0.2 to 5 times it (default 3).")
    static let seed = Option<Int>(
        "seed", placeholder: "S", help: "Seed of the generated scroll: the same seed, the same swipes (default 1).")
    static let script = Option<String>(
        "script", placeholder: "FILE",
        help: "Scroll as FILE says instead: a JSON array of {\"at\": seconds, \"index\": i, \"speed\": items/s}.")
    static let network = Option<Network>(
        "network", help: "The link's profile: prefetching spends less on cellular, nothing when constrained.")
    static let pool = Option<Int>("pool", placeholder: "N", help: "Players in the pool, 2 to 16 (default 5).")
    static let json = PlayctlCommands.json(
        "Print every feed event as JSON Lines as it happens, then one feed.summary object.")
    static let noAudio = Flag("no-audio", help: "The players decode no audio.")
    static let cacheDirectory = PlayctlCommands.cacheDirectory
    static let cacheSize = PlayctlCommands.cacheSize

    static let configuration = CommandSpec(
        name: "feed",
        abstract: "Scroll a feed of short videos and images in real time; report how it kept up.",
        discussion: """
            Plays MANIFEST's entries the way a short-video app does (the Feed module's FeedController): the item \
            scrolled to plays and loops, the next video waits in a pooled player on its first frame, the items \
            around are fetched ahead under a cost budget, and a failed item never blocks the rest. http(s) URLs \
            are read through playctl's loader and byte cache; relative paths in a JSON manifest are resolved \
            against its folder. In a folder, .jpg, .jpeg, .png, .webp and .gif files are images, other media \
            files videos; audio-only files (.m4a, .mp3, ...) are left out, with a note on standard error.

            The scroll is generated from --seed: --swipes swipes forward, each item watched for a time drawn \
            around --dwell, one swipe in ten a fling that passes 3 to 8 items at 10 to 20 items a second (nothing \
            is fetched ahead until it settles). Or it is --script's list of steps, at their times. The command \
            waits the dwell times on the real clock, then prints one line per swipe and the feed's summary: \
            first-frame latency (overall, prepared and cold items), stalls and the rebuffer ratio, bytes fetched \
            and played, loader impressions, the pool, peak memory.

            Exits 1 when the manifest or the script cannot be read (naming the file and the reason), or, after \
            the summary, when an item failed.
            """,
        arguments: [manifest],
        options: [swipes, dwell, seed, script, network, pool, json, noAudio, cacheDirectory, cacheSize],
        constraints: [
            .atMostOne(of: swipes, script), .atMostOne(of: dwell, script), .atMostOne(of: seed, script),
            .requires(cacheSize, cacheDirectory),
        ],
        examples: [
            UsageExample(
                "playctl feed Media --swipes 3 --dwell 0.5",
                "The clips of Media/ as a feed: three swipes, about half a second on each item."),
            UsageExample(
                "playctl feed Media/feed.json --swipes 4 --dwell 0.4 --seed 7 --json",
                "The feed Media/feed.json lists, another scroll; print its events as JSON Lines."),
            UsageExample(
                "playctl feed Media/feed.json --script Media/feed-script.json --network cellular --pool 3",
                "Scroll as Media/feed-script.json says (a fling included), on a cellular budget, with 3 players."),
        ])

    /// Swipes when `--swipes` is absent.
    static let defaultSwipes = 20
    /// Seconds of dwell when `--dwell` is absent.
    static let defaultDwell = 3.0

    /// Where the scroll comes from.
    enum Scroll: Equatable {
        /// `--swipes`, `--dwell`, `--seed`: generated.
        case generated(swipes: Int, dwell: Double, seed: UInt64)
        /// `--script FILE`.
        case script(String)
    }

    /// The manifest: a JSON file or a folder.
    let manifestPath: String
    /// Generated, or a script's.
    let scroll: Scroll
    /// `--network`: the prefetch budget's profile.
    let network: Network
    /// `--pool`: players made up front.
    let poolSize: Int
    /// `--json`: JSON Lines instead of text.
    let printsJSON: Bool
    /// Whether the players decode audio (not with `--no-audio`).
    let audio: Bool
    /// Where the bytes of http(s) entries are cached.
    let cache: CacheOptions

    /// Reads and checks the arguments, in the order their mistakes are reported: `--swipes`, `--dwell`, `--seed`,
    /// `--pool`, the cache.
    /// - Throws: `UsageError` for the first value out of its range.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        manifestPath = arguments[Self.manifest]
        let swipes = try arguments[Self.swipes] ?? Self.defaultSwipes
        guard (0...100_000).contains(swipes) else {
            throw arguments.invalidValue(Self.swipes, value: String(swipes), expected: "a count from 0 to 100000")
        }
        let dwell = try arguments[Self.dwell] ?? Self.defaultDwell
        guard dwell >= 0.2 && dwell <= 3600 else {
            throw arguments.invalidValue(
                Self.dwell, value: arguments.text(of: Self.dwell) ?? "", expected: "seconds from 0.2 to 3600")
        }
        let seed = try arguments[Self.seed] ?? 1
        guard seed >= 0 else {
            throw arguments.invalidValue(Self.seed, value: String(seed), expected: "an integer, 0 or more")
        }
        scroll =
            arguments[Self.script].map(Scroll.script) ?? .generated(swipes: swipes, dwell: dwell, seed: UInt64(seed))
        network = try arguments[Self.network] ?? .unconstrained
        poolSize = try arguments[Self.pool] ?? 5
        guard (2...16).contains(poolSize) else {
            throw arguments.invalidValue(Self.pool, value: String(poolSize), expected: "a count from 2 to 16")
        }
        printsJSON = arguments[Self.json]
        audio = !arguments[Self.noAudio]
        cache = try CacheOptions(arguments, directory: Self.cacheDirectory, size: Self.cacheSize)
    }
}
