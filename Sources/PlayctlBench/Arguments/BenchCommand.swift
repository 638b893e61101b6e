import CommandLineKit

/// `playctl-bench run [--file FILE] [--runs N] [--playback | --network | --dwell | --posters | --feed] ... [--json]`:
/// what it accepts (`--feed`'s options are in `FeedBenchOptions`). It runs in `Commands/BenchCommand+Run.swift`.
/// Like playctl's declarations it imports only CommandLineKit (scripts/fuzz.sh args builds it with them).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Time playctl against ffmpeg and mpv: full decode and worst-case exact seek.",
        discussion: """
            Spawns each command as a process (playctl: the executable next to playctl-bench), alternating them, \
            and reports the median wall time over N runs, the ratios to the reference tools and the peak memory \
            (RSS) of each. It measures two things on the same \
            file: decoding every video frame ('playctl frames --count' against 'ffmpeg -threads 0 -f null'), and \
            an exact seek to the frame just before the second keyframe ('playctl frame --at T --md5' against \
            'ffmpeg -ss T' and 'mpv --hr-seek=yes --start=T'), after checking that the frame is bit-identical to \
            ffmpeg's.

            The default file, bench-media/1080p.mp4, is made by scripts/make-bench-media.sh when missing. Needs \
            ffmpeg in PATH; mpv is optional.

            --network needs nginx on the shaped loopback that scripts/netns.sh starts (it exits 1 otherwise): \
            'scripts/bench.sh --network' builds playctl and playctl-bench in release mode and runs them there. \
            Each first-frame run ('playctl play U --frames 1', 'ffmpeg -i U -frames:v 1 -f null -', \
            'mpv --frames=1 --vo=null --ao=null U') is a new process started on an idle link with an empty cache, timed from start to exit. \
            Targets: first frame at most 1.0x the faster of ffmpeg and mpv at 8 Mbit/s, a start from the cache at \
            most 1.1x the local file's, a full play at most 1.02x the file's bytes.

            --abr needs the same server (it exits 1 otherwise) and runs on its port 18030 alone: \
            'scripts/bench.sh --abr' runs a release build there. Time to first frame of the HLS ladder's master \
            playlist (4 rungs, 12 s) at 8 Mbit/s against ffmpeg and mpv, timed as --network times it (target: at \
            most 0.8x the faster); the bytes nginx sent for a full play against the master, the playlists and the \
            segments of the variants played (target: at most 1.02x); and an ABR run of a 60 s ladder \
            (--abr-seconds) on the real clock while tc changes the link's rate 8 -> 1.5 -> 8 Mbit/s at a sixth and \
            at half of the run, by playctl and by mpv --hls-bitrate=max and =min, then by playctl on the same \
            ladder as a DASH MPD: stalls, switches, the mean bit rate played against the link's mean (targets for \
            each playctl run: no stall, at most 4 switches, at least 60%).

            --feed needs the same server (it exits 1 otherwise) and the feed scripts/make-feed-media.sh makes; \
            'scripts/bench.sh --feed' makes both and runs a release build there. Every trace is seeded and replayed \
            in real time by each player: playctl's FeedController with its defaults, a naive baseline (budget 0, \
            nothing prepared), and mpv (a playlist, 'playlist-next' over its JSON IPC, with and without \
            --prefetch-playlist). Targets: a prepared item's first frame p95 at most 33 ms at 8 Mbit/s; a cold \
            one's at most mpv's without prefetch; with prefetching around it at most 1.05x without; waste at most \
            15% and rebuffering at most 0.5% with a 14 s median dwell; at least 20% fewer loader impressions than \
            the naive baseline at 1.6 Mbit/s; the soak's peak memory at most 150 MB, its growth after the warm-up \
            at most 2 MB, descriptors and threads back to where they started; a feed of HLS ladders: prepared \
            items' first frame p95 at most 33 ms at 8 Mbit/s, fewer loader impressions at 1.6 Mbit/s than the same \
            feed as 1080p files. The soak and --sweep run on a \
            simulated network under a manual clock (real decoding, virtual time).
            """,
        examples: [
            UsageExample("playctl-bench run --file clip.mp4 --runs 3", "Measure clip.mp4, 3 runs of each command."),
            UsageExample("playctl-bench run --file clip.mp4 --runs 3 --json", "The same; print JSON."),
            UsageExample(
                "playctl-bench run --thumbnails --file clip.mp4 --runs 1",
                "A storyboard of clip.mp4 against ffmpeg's keyframe decode, 1 run of each."),
            UsageExample(
                "playctl-bench run --scrub --file clip.mp4 --runs 1",
                "A drag of the seek bar over clip.mp4 against a plain exact seek, 1 run of each."),
            UsageExample(
                "playctl-bench run --network --runs 1",
                "Remote playback, 1 run of each command; inside scripts/netns.sh, as scripts/bench.sh --network runs it."
            ),
            UsageExample(
                "playctl-bench run --abr --runs 1 --abr-seconds 12",
                "Adaptive streaming, 1 first-frame run of each command and a 12 s ABR run (the link changes at 2 s "
                    + "and 6 s); inside scripts/netns.sh, as scripts/bench.sh --abr runs it."),
            UsageExample(
                "playctl-bench run --feed --json",
                "The feed against naive and mpv (about 25 minutes); inside scripts/netns.sh, as scripts/bench.sh --feed "
                    + "runs it."),
            UsageExample(
                "playctl-bench run --feed --parts hls --json",
                "The feed of HLS ladders at 8 and 1.6 Mbit/s against the same feed as 1080p files (about 5 minutes); "
                    + "inside scripts/netns.sh, as scripts/bench.sh --feed --parts hls runs it."),
            UsageExample(
                "playctl-bench run --feed --sweep --swipes 20 --budgets 3,5 --video-costs 2 --inactive-kib 0",
                "A small parameter sweep: 2 points of 20 swipes each, on the simulated link."),
        ])

    static var constraints: [OptionRule<Self>] {
        [
            .atMostOne(\.$playback, \.$network, \.$dwell, \.$abr, \.$posters, \.$thumbnails, \.$scrub, \.feed.$feed),
            .requires(\.$abrSeconds, \.$abr),
        ]
            + FeedBenchOptions.constraints(\.feed)
    }

    /// Runs per command when `--runs` is absent.
    static let defaultRuns = 9

    /// `--file`, or nil for the default file.
    @Option(
        placeholder: "FILE",
        help: """
            The media file to measure (default bench-media/1080p.mp4); with --network, a file of the served \
            folder (default hd.mp4); with --feed, a folder of it (default feed).
            """)
    var file: String?
    /// Timed runs per command.
    @Option(
        placeholder: "N", help: "Timed runs of each command; the median is reported (default 9).",
        check: .atLeast(1, "a positive integer"))
    var runs: Int = BenchCommand.defaultRuns
    /// `--playback`: measure the player rather than the decoder.
    @Flag(
        help: """
            Measure the player instead: startup, real-time presentation error, 8 concurrent players, peak \
            memory against ffmpeg, and Picture in Picture swap latency.
            """)
    var playback: Bool
    /// `--network`: measure remote playback.
    @Flag(
        help: """
            Measure remote playback over scripts/netns.sh's shaped loopback: time to first frame of a URL against \
            ffmpeg and mpv at 8, 20 and 2 Mbit/s, a second play from the byte cache against the local file, and \
            the bytes a full play transfers. Run it through scripts/bench.sh --network.
            """)
    var network: Bool
    /// `--abr`: measure adaptive streaming.
    @Flag(
        help: """
            Measure adaptive streaming (HLS and DASH) over scripts/netns.sh's shaped loopback: time to first \
            frame of a ladder's master playlist against ffmpeg and mpv at 8 Mbit/s, the bytes of a full play \
            against the segments played, and ABR runs (HLS, DASH) while the link's rate changes, against mpv. Run \
            it through scripts/bench.sh --abr.
            """)
    var abr: Bool
    /// `--abr-seconds`: the ABR run's length.
    @Option(
        placeholder: "S",
        help: "With --abr, the length of the ABR run in seconds, at most 60 (default 60).",
        check: .range(1...60, "an integer from 1 to 60"))
    var abrSeconds: Int?
    /// `--dwell`: measure warm connections.
    @Flag(
        help: """
            Measure warm connections over scripts/netns.sh's 8 Mbit/s port: the first frame of a remote clip \
            (--file, default hd.mp4) after the loader sat idle 30 s against after 1 s, with its idle lifetime at \
            5 s (as before) and at its default, and the connections each opened (target: at most 1.1x with the \
            default; --runs 3 takes about 4 minutes). Run it through scripts/bench.sh --dwell.
            """)
    var dwell: Bool
    /// `--posters`: measure the poster pipeline.
    @Flag(
        help: """
            Measure the poster pipeline: a 720p clip's first-frame poster against ffmpeg (local, and over the \
            8 Mbit/s link inside scripts/netns.sh), and a batch of 300 requests with duplicates (fetches against \
            distinct keys, peak memory). Run it through scripts/bench.sh --posters.
            """)
    var posters: Bool
    /// `--thumbnails`: measure a storyboard.
    @Flag(
        help: """
            Measure a storyboard: 'playctl thumbnails' of a 10-minute 1080p clip (--file, default long.mp4 of \
            scripts/make-http-media.sh) every 10 s at 160x90 against 'ffmpeg -skip_frame nokey -vf fps,scale' \
            (target: at most 0.5x), and inside scripts/netns.sh the bytes sent over 8 Mbit/s against the header \
            and keyframes (target: at most 1.3x).
            """)
    var thumbnails: Bool
    /// `--scrub`: measure a drag of the seek bar.
    @Flag(
        help: """
            Measure scrubbing: a drag of the seek bar over a 10-minute 1080p clip (--file, default long.mp4 of \
            scripts/make-http-media.sh) from 2% to 98.3% of it in 2 s with 60 positions ('playctl play --scrub'), \
            against a plain exact seek to where it ends. Targets: a frame shown for at least 50 positions, the \
            first within 50 ms, the exact frame at the end within 1.2x the plain seek.
            """)
    var scrub: Bool
    /// `--feed` and its options.
    var feed = FeedBenchOptions()
    /// Whether to print JSON instead of a table.
    @Flag(name: "json", help: "Print the results as one JSON object instead of a table.") var printsJSON: Bool

    /// Checks `--feed`'s lists.
    func validate() throws(UsageError) {
        try feed.validate()
    }
}
