import CommandLineKit

/// `playctl feed MANIFEST [--swipes N] [--dwell SEC] [--seed S] [--script FILE] [--network PROFILE] [--pool N]
/// [--estimate BPS] [--grid CxR] [--json] [--no-audio] [--no-posters] [--cache-dir DIR --cache-size BYTES]`: what it accepts. It runs in `Commands/Feed/`.
struct FeedCommand: ParsableCommand {
    /// `--network`: what the link is like, as the platform would report it (the Feed module's `NetworkProfile`).
    enum Network: String, CaseIterable, ArgumentValue {
        case unconstrained, cellular, constrained
    }

    static let configuration = CommandConfiguration(
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

            With --grid CxR the feed shows C columns and R rows of items at once (a grid or a carousel): every \
            visible video plays in a pooled player of its own, muted but for one (the first visible item: \
            feed.audible), a swipe moves the grid by a row, and the next row waits in pooled players on its \
            first frames. The summary counts every cell that came on screen.

            Exits 1 when the manifest or the script cannot be read (naming the file and the reason), or, after \
            the summary, when an item failed.
            """,
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
            UsageExample(
                "playctl feed Media --grid 2x2 --swipes 1 --dwell 1 --json",
                "The clips of Media/ in a 2x2 grid: four play at once, muted but the first (feed.audible); a swipe moves a row."
            ),
        ])

    static var constraints: [OptionRule<Self>] {
        [
            .atMostOne(\.$swipes, \.$script), .atMostOne(\.$dwell, \.$script), .atMostOne(\.$seed, \.$script),
            .requires(\.cache.$size, \.cache.$directory),
        ]
    }

    /// Where the scroll comes from.
    enum Scroll: Equatable {
        /// `--swipes`, `--dwell`, `--seed`: generated.
        case generated(swipes: Int, dwell: Double, seed: UInt64)
        /// `--script FILE`.
        case script(String)
    }

    /// The manifest: a JSON file or a folder.
    @Argument(
        name: "MANIFEST",
        help: """
            A JSON file listing the feed's entries ({"entries": [{"url": .., "kind": "video"|"image"}, ..]}, or \
            the array alone; a video may list "renditions": [{"url": .., "bitrate": .., "width": .., "height": \
            ..}, ..] and plays the one the bandwidth estimate allows; an entry may give "headers": {"NAME": \
            "VALUE", ..}, sent with its requests, and "poster": URL, a picture shown until its first frame), or a folder of media files (sorted by name). A file or an \
            http(s) URL; an endless feed's page names the next one ("next": URL), read through the loader as the \
            user nears the end.
            """)
    var manifestPath: String
    @Option(
        placeholder: "N", help: "Swipes forward after the first item, stopping at the last one (default 20).",
        check: .range(0...100_000, "a count from 0 to 100000"))
    var swipes: Int = 20
    @Option(
        placeholder: "SEC",
        help: "Typical seconds on an item; each dwell is drawn around it, 0.2 to 5 times it (default 3).",
        check: .range(0.2...3600, "seconds from 0.2 to 3600"))
    var dwell: Double = 3
    @Option(
        placeholder: "S", help: "Seed of the generated scroll: the same seed, the same swipes (default 1).",
        check: .atLeast(0, "an integer, 0 or more"))
    var seed: Int = 1
    @Option(
        placeholder: "FILE",
        help: "Scroll as FILE says instead: a JSON array of {\"at\": seconds, \"index\": i, \"speed\": items/s}.")
    var script: String?
    /// `--network`: the prefetch budget's profile.
    @Option(help: "The link's profile: prefetching spends less on cellular, nothing when constrained.")
    var network: Network = .unconstrained
    /// `--pool`: players made up front.
    @Option(
        name: "pool", placeholder: "N", help: "Players in the pool, 2 to 16 (default 5).",
        check: .range(2...16, "a count from 2 to 16"))
    var poolSize: Int = 5
    /// `--estimate`: the bandwidth estimate the run starts from.
    @Option(
        name: "estimate", placeholder: "BPS",
        help: """
            Start the choice of each entry's rendition from BPS bits per second instead of 500 kbit/s; what the \
            run measures replaces it.
            """,
        check: .atLeast(1, "a positive number of bits per second"))
    var estimate: Int?
    /// `--grid`: several items on screen at once.
    @Option(
        name: "grid", placeholder: "CxR",
        help: "Show C columns and R rows of items at once, each video playing, muted but for one; a swipe is a row.")
    var grid: FeedGrid?
    /// `--timeline`: the run's picture.
    @Option(
        name: "timeline", placeholder: "OUT.svg",
        help: "At the end, draw the run's timeline (as playctl report does) to OUT.svg.")
    var timelinePath: String?
    @Flag(name: "json", help: "Print every feed event as JSON Lines as it happens, then one feed.summary object.")
    var printsJSON: Bool
    @Flag(help: "The players decode no audio.") var noAudio: Bool
    @Flag(
        help: """
            Make no posters. By default every http(s) item around the one on screen gets a 180x320 poster (its \
            first keyframe decoded small, or its image), the stand-in its cell shows until its player has a frame.
            """)
    var noPosters: Bool
    /// Where the bytes of http(s) entries are cached.
    var cache = CacheOptions()
    /// `--header`: HTTP header fields sent for every http(s) entry and manifest.
    var request = RequestOptions()

    /// Generated, or a script's.
    var scroll: Scroll {
        script.map(Scroll.script) ?? .generated(swipes: swipes, dwell: dwell, seed: UInt64(seed))
    }
    /// The posters' size, width and height (nil with `--no-posters`).
    var posterSize: (width: Int, height: Int)? { noPosters ? nil : (180, 320) }
    /// Whether the players decode audio (not with `--no-audio`).
    var audio: Bool { !noAudio }
}
