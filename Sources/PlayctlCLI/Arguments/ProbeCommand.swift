import CommandLineKit

/// `playctl probe FILE [--json]`: what it accepts. It runs in `Commands/ProbeCommand+Run.swift`.
struct ProbeCommand: ParsableCommand {
    static let file = PlayctlCommands.file
    static let json = PlayctlCommands.json("Print one JSON object instead of text.")

    static let configuration = CommandSpec(
        name: "probe",
        abstract: "Show the container, duration and streams of a media file.",
        discussion: """
            Opens the file, reads enough of it to know its streams, and prints the container format, the duration, \
            and for each stream its type, codec, time base and main parameters (size and frame rate for video, \
            sample rate and channels for audio).
            """,
        arguments: [file],
        options: [json],
        examples: [
            UsageExample("playctl probe clip.mp4", "Describe clip.mp4."),
            UsageExample("playctl probe clip.mp4 --json", "The same, as one JSON object."),
        ])

    /// The file to open.
    let path: String
    /// Whether to print JSON instead of text.
    let printsJSON: Bool

    /// Reads the command's arguments; the parser has already checked them.
    init(_ arguments: ParsedArguments) {
        path = arguments[Self.file]
        printsJSON = arguments[Self.json]
    }
}
