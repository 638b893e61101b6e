import CommandLineKit

/// `playctl probe FILE [--json]`: what it accepts. It runs in `Commands/ProbeCommand+Run.swift`.
struct ProbeCommand: ParsableCommand {
    static let file = PlayctlCommands.file
    static let json = PlayctlCommands.json("Print one JSON object instead of text.")
    static let cacheDirectory = PlayctlCommands.cacheDirectory
    static let cacheSize = PlayctlCommands.cacheSize
    static let decryptionKey = PlayctlCommands.decryptionKey

    static let configuration = CommandSpec(
        name: "probe",
        abstract: "Show the container, duration and streams of a media file.",
        discussion: """
            Opens the file, reads enough of it to know its streams, and prints the container format, the duration, \
            and for each stream its type, codec, time base and main parameters (size and frame rate for video, \
            sample rate and channels for audio), its language and title when tagged, and the container's default \
            and forced flags. Bitmap subtitles (PGS, DVD, DVB) are listed as not rendered.
            """,
        arguments: [file],
        options: [json, cacheDirectory, cacheSize, decryptionKey],
        constraints: [.requires(cacheSize, cacheDirectory)],
        examples: [
            UsageExample("playctl probe clip.mp4", "Describe clip.mp4."),
            UsageExample("playctl probe http://127.0.0.1:18000/a.mp4", "Describe a clip on a web server."),
            UsageExample("playctl probe clip.mp4 --json", "The same, as one JSON object."),
            UsageExample(
                "playctl probe film.mkv",
                "List the audio and subtitle tracks of film.mkv with their languages and flags."),
        ])

    /// The file to open.
    let path: String
    /// Whether to print JSON instead of text.
    let printsJSON: Bool
    /// Where the bytes of an http(s) FILE are cached.
    let cache: CacheOptions
    /// `--decryption-key`.
    let decryptionKey: String?

    /// Reads the command's arguments.
    /// - Throws: `UsageError` for a cache size out of range.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.file]
        printsJSON = arguments[Self.json]
        cache = try CacheOptions(arguments, directory: Self.cacheDirectory, size: Self.cacheSize)
        decryptionKey = try arguments[Self.decryptionKey]?.hex
    }
}
