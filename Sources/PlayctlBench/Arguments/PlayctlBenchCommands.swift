import CommandLineKit

/// The command-line interface of `playctl-bench`, the benchmarks' own executable: the tool and its command.
///
/// The benchmarks spawn the `playctl` next to it and measure it, and some need the test kit (its HTTP servers,
/// simulated network and process runner), which `playctl` itself does not link. Like playctl's declarations, this
/// folder imports only CommandLineKit: scripts/fuzz.sh args builds it with them.
public enum PlayctlBenchCommands {
    /// The text `playctl-bench --version` prints.
    public static let version = "playctl-bench 0.1.0"

    /// The whole tool: `run`, the benchmarks.
    public static let tool = CommandLineTool(
        name: "playctl-bench",
        abstract: "Benchmarks of playctl against ffmpeg and mpv: decoding, playback, network, posters, the feed.",
        discussion: """
            Run it through scripts/bench.sh, which builds playctl and playctl-bench in release mode (and, for \
            --network, --posters and --feed, runs them inside scripts/netns.sh).
            """,
        version: version,
        commands: [BenchCommand.self])

    /// The tool's declaration (its texts and its command's configuration).
    public static var spec: ToolSpec { tool.spec }
}
