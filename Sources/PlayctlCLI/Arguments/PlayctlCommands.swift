import CommandLineKit

/// The command-line interface of `playctl`: the tool and its commands.
///
/// Each command is a type in this folder (`ProbeCommand`, `FramesCommand`, …) that declares each option once, as a
/// property (`@Option`, `@Flag`, `@Argument`) whose declaration is also its help, type, check and storage; what it
/// does is in `Commands/` (`PlayctlCommand.run`). `PlayctlMain` parses with `tool` and runs the command it gets back. Nothing
/// here imports more than CommandLineKit, so the argument fuzzer (scripts/fuzz.sh args) builds this folder alone.
public enum PlayctlCommands {
    /// The text `playctl --version` prints.
    public static let version = "playctl 0.1.0"

    /// The whole tool: `probe`, `frames`, `frame`, `poster`, `play`, `feed` and `soak`, in the order help lists them.
    /// (The benchmarks are playctl-bench's, `PlayctlBenchCommands`.)
    public static let tool = CommandLineTool(
        name: "playctl",
        abstract: "A headless media playback engine: probe, decode and play media files.",
        discussion: """
            Commands read a media file (a path or an http(s) URL), a list of them (poster --batch), a feed's \
            manifest or folder (feed), or a folder of clips (soak). With --json, commands print one JSON object per \
            line on standard output, flushed as it happens, using the same event names as the Playback library.
            """,
        version: version,
        commands: [
            ProbeCommand.self, FramesCommand.self, FrameCommand.self, PosterCommand.self, PlayCommand.self,
            FeedCommand.self, SoakCommand.self, ThumbnailsCommand.self, ReportCommand.self,
        ])

    /// The tool's declaration (its texts and every command's configuration).
    public static var spec: ToolSpec { tool.spec }

    // MARK: Shared help

    /// `FILE`'s help: the media file a command reads.
    static let fileHelp = "The media file to read: a path, or an http(s) URL (read through playctl's loader)."

    /// `--decryption-key HEX`'s help: the clear key of an MP4 encrypted with common encryption.
    static let decryptionKeyHelp =
        "The key of an MP4 encrypted with common encryption (cenc-aes-ctr), as 32 hex digits."
}

/// `--decryption-key HEX`'s value: 32 hex digits (a 128-bit AES key).
struct DecryptionKey: Equatable, ArgumentValue {
    let hex: String

    init?(argument: String) {
        guard argument.count == 32, argument.allSatisfy(\.isHexDigit) else { return nil }
        hex = argument.lowercased()
    }

    static let expectedArgument = "a 128-bit key as 32 hex digits"
}
