import CommandLineKit

/// The command-line interface of `playctl`: every command, option and help text, declared once.
///
/// The executable parses with `PlayctlCommands.spec.parse(Array(CommandLine.arguments.dropFirst()))` and switches
/// on the command's name (`PlayctlCommands.Name`).
public enum PlayctlCommands {
    /// The text `playctl --version` prints.
    public static let version = "playctl 0.1.0"

    /// Command names, for switching on `ParseOutcome.run`'s command.
    public enum Name {
        /// `playctl probe`.
        public static let probe = "probe"
        /// `playctl frames`.
        public static let frames = "frames"
        /// `playctl frame`.
        public static let frame = "frame"
        /// `playctl play`.
        public static let play = "play"
        /// `playctl bench`.
        public static let bench = "bench"
        /// `playctl soak`.
        public static let soak = "soak"
    }

    /// The whole tool: `probe`, `frames`, `frame`, `play`, `bench` and `soak`.
    public static let spec = ToolSpec(
        name: "playctl",
        abstract: "A headless media playback engine: probe, decode and play media files.",
        discussion: """
            Every command reads one media file. With --json, commands print one JSON object per line on standard \
            output, flushed as it happens, using the same event names as the Playback library.
            """,
        version: version,
        commands: [probe, frames, frame, play, bench, soak])

    /// `playctl probe FILE [--json]`.
    public static let probe = CommandSpec(
        name: Name.probe,
        abstract: "Show the container, duration and streams of a media file.",
        discussion: """
            Opens the file, reads enough of it to know its streams, and prints the container format, the duration, \
            and for each stream its type, codec, time base and main parameters (size and frame rate for video, \
            sample rate and channels for audio).
            """,
        arguments: [file],
        options: [json("Print one JSON object instead of text.")],
        examples: [
            UsageExample("playctl probe clip.mp4", "Describe clip.mp4."),
            UsageExample("playctl probe clip.mp4 --json", "The same, as one JSON object."),
        ])

    /// `playctl frames FILE (--md5 | --count) [--json]`.
    public static let frames = CommandSpec(
        name: Name.frames,
        abstract: "Decode every video frame and print its md5, like ffmpeg's framemd5.",
        discussion: """
            Decodes the first video stream from start to end, in presentation order, and prints one line per \
            frame: its time in seconds from the start of the media (six decimals) and the md5 of the decoded \
            picture. The md5s equal, line by line, the last column of \
            'ffmpeg -noautorotate -i FILE -map 0:v:0 -fps_mode passthrough -f framemd5 -'.

            With --count it decodes every frame the same way but prints only how many there were, which times \
            the decoder alone (playctl bench uses it).
            """,
        arguments: [file],
        options: [
            .flag("md5", help: "Print the time and md5 of each decoded frame."),
            .flag("count", help: "Decode every frame and print only the number of frames."),
            json("Print JSON instead: {\"time\":..,\"md5\":..} per frame, or {\"frames\":N} with --count."),
        ],
        constraints: [.exactlyOne(["md5", "count"])],
        examples: [
            UsageExample("playctl frames clip.mp4 --md5", "Print the time and md5 of every frame of clip.mp4."),
            UsageExample("playctl frames clip.mp4 --count", "Decode clip.mp4 and print its number of frames."),
        ])

    /// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`.
    public static let frame = CommandSpec(
        name: Name.frame,
        abstract: "Decode the frame shown at one time; print its md5 or save it as PNG.",
        discussion: """
            Seeks exactly: jumps to the keyframe at or before the time, then decodes forward to the frame that is \
            on screen at that time. With --keyframe it stops at that keyframe instead, which is faster but shows \
            an earlier frame.
            """,
        arguments: [file],
        options: [
            .value(
                "at", placeholder: "SECONDS", help: "The presentation time of the frame, in seconds.",
                required: true),
            .flag("md5", help: "Print the md5 of the decoded frame."),
            .value("output", short: "o", placeholder: "OUT.png", help: "Write the frame as a PNG file to this path."),
            .flag("keyframe", help: "Use the keyframe at or before the time instead of the exact frame."),
        ],
        constraints: [.exactlyOne(["md5", "output"])],
        examples: [
            UsageExample("playctl frame clip.mp4 --at 2.5 --md5", "Print the md5 of the frame shown at 2.5 seconds."),
            UsageExample("playctl frame clip.mp4 --at 10 -o ten.png", "Save the frame shown at 10 seconds as ten.png."),
        ])

    /// `playctl play FILE [--rate R] [--seek SEC[@AT]]... [--until SEC] [--untimed] ...`.
    public static let play = CommandSpec(
        name: Name.play,
        abstract: "Play a media file headlessly and report what the player does.",
        discussion: """
            Plays the file through the Playback engine, with frames released to a null video output when the \
            clock reaches them, until the end of the file or --until. Seeks, picture in picture and item swaps \
            are scheduled from the command line, so one invocation is one reproducible scenario.

            With --untimed the clock is virtual and advances as fast as frames are decoded, so a scenario runs at \
            full speed and gives the same event trace on every run.
            """,
        arguments: [file],
        options: [
            .value("rate", placeholder: "R", help: "Playback rate: 1 is normal speed, 2 twice as fast (default 1)."),
            .repeatable(
                "seek", placeholder: "SEC[@AT]",
                help: """
                    Seek exactly to SEC seconds when the media time reaches AT (at the start when @AT is left out). \
                    Repeat for several seeks.
                    """),
            .value("until", placeholder: "SEC", help: "Stop when the playback time reaches SEC seconds."),
            .flag("untimed", help: "Use a virtual clock that advances as fast as frames are decoded."),
            .flag("no-audio", help: "Ignore the audio streams."),
            json("Print player events as JSON Lines on standard output."),
            .flag("pip", help: "Start picture in picture on the simulated system host once playback starts."),
            .value("swap", placeholder: "B", help: "Swap the content to media file B during playback."),
            .value("swap-at", placeholder: "SEC", help: "When to swap, in seconds after playback starts (default 0)."),
            .value(
                "swap-mode",
                help: "source: give picture in picture a new player for B; item: replace the current player's item.",
                choices: ["source", "item"]),
            .flag("restore", help: "Restore from picture in picture to the inline view before stopping."),
            .value("metrics-out", placeholder: "FILE", help: "Write playback metrics as JSON Lines to FILE."),
        ],
        constraints: [.requires("swap-at", "swap"), .requires("swap-mode", "swap")],
        examples: [
            UsageExample("playctl play clip.mp4 --untimed --json", "Play clip.mp4 at full speed and print its events."),
            UsageExample(
                "playctl play clip.mp4 --seek 5 --seek 1@2 --until 4",
                "Seek to 5 s at once, to 1 s two seconds later, and stop at 4 s."),
            UsageExample(
                "playctl play a.mp4 --pip --swap b.mp4 --swap-at 3 --swap-mode source --restore",
                "Start picture in picture, swap to b.mp4 after 3 seconds, then restore."),
        ])

    /// `playctl bench [--file FILE] [--runs N] [--json]`.
    public static let bench = CommandSpec(
        name: Name.bench,
        abstract: "Time playctl against ffmpeg and mpv: full decode and worst-case exact seek.",
        discussion: """
            Spawns each command as a process, alternating them, and reports the median wall time over N runs, the \
            ratios to the reference tools and the peak memory (RSS) of each. It measures two things on the same \
            file: decoding every video frame ('playctl frames --count' against 'ffmpeg -threads 0 -f null'), and \
            an exact seek to the frame just before the second keyframe ('playctl frame --at T --md5' against \
            'ffmpeg -ss T' and 'mpv --hr-seek=yes --start=T'), after checking that the frame is bit-identical to \
            ffmpeg's.

            The default file, bench-media/1080p.mp4, is made by scripts/make-bench-media.sh when missing. Needs \
            ffmpeg in PATH; mpv is optional.
            """,
        options: [
            .value("file", placeholder: "FILE", help: "The media file to measure (default bench-media/1080p.mp4)."),
            .value("runs", placeholder: "N", help: "Timed runs of each command; the median is reported (default 9)."),
            .flag("playback", help: """
                Measure the player instead: startup, real-time presentation error, 8 concurrent players, peak \
                memory against ffmpeg, and Picture in Picture swap latency.
                """),
            json("Print the results as one JSON object instead of a table."),
        ],
        examples: [
            UsageExample("playctl bench", "Measure on bench-media/1080p.mp4, 9 runs of each command."),
            UsageExample("playctl bench --file clip.mp4 --runs 5 --json", "Measure clip.mp4; print JSON."),
        ])

    /// `playctl soak [--swaps N] [--seeks N] [--media DIR] [--json]`.
    public static let soak = CommandSpec(
        name: Name.soak,
        abstract: "Swap items and seek many times in one player; check that nothing leaks.",
        discussion: """
            One player under a manual clock takes --swaps new items, cycling through the clips in --media, and \
            makes --seeks seeks to random points (exact or to a keyframe; the same points on every run), moving \
            the clock a little after each step. With the player emptied, resident memory (from /proc/self/statm, \
            after handing free heap memory back, with glibc's malloc arenas capped at 2) is measured after the \
            first 10% of the steps (at least one pass over the clips) and at the end; then the player is invalidated and open file descriptors and \
            threads are counted again.

            Exits 1 when resident memory grew by more than 2 MB after the warm-up, when descriptors or threads \
            are not back to where they started, or when an item fails to load.
            """,
        options: [
            .value("swaps", placeholder: "N", help: "Items to swap in with replaceCurrentItem (default 1000)."),
            .value("seeks", placeholder: "N", help: "Seeks to make (default 1000)."),
            .value("media", placeholder: "DIR", help: "The folder of clips to swap between (default Media)."),
            json("Print the figures as one JSON object instead of text."),
        ],
        examples: [
            UsageExample("playctl soak", "1000 swaps and 1000 seeks over the clips in ./Media."),
            UsageExample("playctl soak --swaps 100 --seeks 100 --json", "A short run; print JSON."),
        ])

    // MARK: Shared declarations

    private static let file = PositionalSpec("FILE", help: "The media file to read.")

    private static func json(_ help: String) -> OptionSpec {
        .flag("json", help: help)
    }
}
