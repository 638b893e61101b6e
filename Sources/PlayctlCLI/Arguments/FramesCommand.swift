import CommandLineKit

/// `playctl frames FILE (--md5 | --count) [--json]`: what it accepts. It runs in `Commands/FramesCommand+Run.swift`.
struct FramesCommand: ParsableCommand {
    static let file = PlayctlCommands.file
    static let md5 = Flag("md5", help: "Print the time and md5 of each decoded frame.")
    static let count = Flag("count", help: "Decode every frame and print only the number of frames.")
    static let json = PlayctlCommands.json(
        "Print JSON instead: {\"time\":..,\"md5\":..} per frame, or {\"frames\":N} with --count.")
    static let cacheDirectory = PlayctlCommands.cacheDirectory
    static let cacheSize = PlayctlCommands.cacheSize
    static let decryptionKey = PlayctlCommands.decryptionKey

    static let configuration = CommandSpec(
        name: "frames",
        abstract: "Decode every video frame and print its md5, like ffmpeg's framemd5.",
        discussion: """
            Decodes the first video stream from start to end, in presentation order, and prints one line per \
            frame: its time in seconds from the start of the media (six decimals) and the md5 of the decoded \
            picture. The md5s equal, line by line, the last column of \
            'ffmpeg -noautorotate -i FILE -map 0:v:0 -fps_mode passthrough -f framemd5 -'.

            With --count it decodes every frame the same way but prints only how many there were, which times \
            the decoder alone (playctl-bench uses it).
            """,
        arguments: [file],
        options: [md5, count, json, cacheDirectory, cacheSize, decryptionKey],
        constraints: [.exactlyOne(of: md5, count), .requires(cacheSize, cacheDirectory)],
        examples: [
            UsageExample("playctl frames clip.mp4 --md5", "Print the time and md5 of every frame of clip.mp4."),
            UsageExample("playctl frames clip.mp4 --count", "Decode clip.mp4 and print its number of frames."),
        ])

    /// What to print.
    enum Mode {
        /// Time and md5 of every frame.
        case md5
        /// The number of frames only.
        case count
    }

    /// The file to decode.
    let path: String
    /// What to print.
    let mode: Mode
    /// Whether to print JSON instead of text.
    let printsJSON: Bool
    /// Where the bytes of an http(s) FILE are cached.
    let cache: CacheOptions
    /// `--decryption-key`.
    let decryptionKey: String?

    /// Reads the command's arguments; the parser has already checked that exactly one mode is given.
    /// - Throws: `UsageError` for a cache size out of range.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.file]
        mode = arguments[Self.count] ? .count : .md5
        printsJSON = arguments[Self.json]
        cache = try CacheOptions(arguments, directory: Self.cacheDirectory, size: Self.cacheSize)
        decryptionKey = try arguments[Self.decryptionKey]?.hex
    }
}
