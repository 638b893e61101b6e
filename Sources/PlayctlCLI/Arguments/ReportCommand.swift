import CommandLineKit

/// `playctl report RUN.jsonl -o run.svg`: what it accepts. It runs in `Commands/Report/ReportCommand+Run.swift`.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Draw a run's timeline as SVG from the JSON Lines of play --json or feed --json.",
        discussion: """
            Reads the events a run printed with --json (one JSON object a line; lines that are not JSON objects \
            are skipped) and draws, against the run time in seconds: the player's time-control status as bands \
            (the waiting reason in them), the media time with the loaded ranges shaded and each seek an arrow from \
            its request to its landing with its latency, marks for stalls, rate changes, PiP steps, content swaps \
            and new items, and for a feed one row per item shown (its swipe, first frame and prefetched bytes). \
            The SVG is written directly: the same input gives the same bytes.
            """,
        examples: [
            UsageExample("playctl report run.jsonl -o run.svg", "Draw the run that run.jsonl recorded.")
        ])

    @Argument(name: "RUN.jsonl", help: "The run's JSON Lines (what play --json or feed --json printed).")
    var input: String
    @Option(short: "o", placeholder: "OUT.svg", help: "Write the picture here.") var output: String
}
