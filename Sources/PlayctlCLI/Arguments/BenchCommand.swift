import CommandLineKit

/// `playctl bench [--file FILE] [--runs N] [--playback] [--json]`: what it accepts. It runs in
/// `Commands/Bench/BenchCommand+Run.swift`.
struct BenchCommand: ParsableCommand {
    static let file = Option<String>(
        "file", placeholder: "FILE", help: "The media file to measure (default bench-media/1080p.mp4).")
    static let runs = Option<Int>(
        "runs", placeholder: "N", help: "Timed runs of each command; the median is reported (default 9).")
    static let playback = Flag(
        "playback",
        help: """
            Measure the player instead: startup, real-time presentation error, 8 concurrent players, peak \
            memory against ffmpeg, and Picture in Picture swap latency.
            """)
    static let json = PlayctlCommands.json("Print the results as one JSON object instead of a table.")

    static let configuration = CommandSpec(
        name: "bench",
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
        options: [file, runs, playback, json],
        examples: [
            UsageExample("playctl bench", "Measure on bench-media/1080p.mp4, 9 runs of each command."),
            UsageExample("playctl bench --file clip.mp4 --runs 5 --json", "Measure clip.mp4; print JSON."),
        ])

    /// Runs per command when `--runs` is absent.
    static let defaultRuns = 9

    /// `--file`, or nil for the default file.
    let file: String?
    /// Timed runs per command.
    let runs: Int
    /// `--playback`: measure the player rather than the decoder.
    let playback: Bool
    /// Whether to print JSON instead of a table.
    let printsJSON: Bool

    /// Reads and checks the arguments.
    /// - Throws: `UsageError` when `--runs` is not a positive integer.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        file = arguments[Self.file]
        let runs = try arguments[Self.runs]
        if let runs, runs < 1 {
            throw arguments.invalidValue(Self.runs, value: String(runs), expected: "a positive integer")
        }
        self.runs = runs ?? Self.defaultRuns
        printsJSON = arguments[Self.json]
        playback = arguments[Self.playback]
    }
}
