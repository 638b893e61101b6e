import CommandLineKit

/// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`: what it accepts. It runs in
/// `Commands/FrameCommand+Run.swift`.
struct FrameCommand: ParsableCommand {
    static let file = PlayctlCommands.file
    static let at = Option<Double>(
        "at", placeholder: "SECONDS", help: "The presentation time of the frame, in seconds.", required: true)
    static let md5 = Flag("md5", help: "Print the md5 of the decoded frame.")
    static let output = Option<String>(
        "output", short: "o", placeholder: "OUT.png", help: "Write the frame as a PNG file to this path.")
    static let keyframe = Flag("keyframe", help: "Use the keyframe at or before the time instead of the exact frame.")
    static let cacheDirectory = PlayctlCommands.cacheDirectory
    static let cacheSize = PlayctlCommands.cacheSize
    static let decryptionKey = PlayctlCommands.decryptionKey

    static let configuration = CommandSpec(
        name: "frame",
        abstract: "Decode the frame shown at one time; print its md5 or save it as PNG.",
        discussion: """
            Seeks exactly: jumps to the keyframe at or before the time, then decodes forward to the frame that is \
            on screen at that time. With --keyframe it stops at that keyframe instead, which is faster but shows \
            an earlier frame.
            """,
        arguments: [file],
        options: [at, md5, output, keyframe, cacheDirectory, cacheSize, decryptionKey],
        constraints: [.exactlyOne(of: md5, output), .requires(cacheSize, cacheDirectory)],
        examples: [
            UsageExample("playctl frame clip.mp4 --at 2.5 --md5", "Print the md5 of the frame shown at 2.5 seconds."),
            UsageExample("playctl frame clip.mp4 --at 10 -o ten.png", "Save the frame shown at 10 seconds as ten.png."),
        ])

    /// What to do with the frame.
    enum Output {
        /// Print its time and md5.
        case md5
        /// Write it as a PNG file at this path.
        case png(String)
    }

    /// The file to read.
    let path: String
    /// The time asked for, in seconds from the start of the media; never negative.
    let seconds: Double
    /// Whether to stop at the keyframe at or before the time instead of the exact frame.
    let keyframeOnly: Bool
    /// What to do with the frame.
    let output: Output
    /// Where the bytes of an http(s) FILE are cached.
    let cache: CacheOptions
    /// `--decryption-key`.
    let decryptionKey: String?

    /// Reads and checks the command's arguments.
    /// - Throws: `UsageError` when `--at` is not a number or is negative.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[Self.file]
        let at = try arguments.required(Self.at)
        guard at >= 0 else {
            throw arguments.invalidValue(
                Self.at, value: arguments.text(of: Self.at) ?? "", expected: "a time in seconds, 0 or more")
        }
        seconds = at
        keyframeOnly = arguments[Self.keyframe]
        output = arguments[Self.output].map(Output.png) ?? .md5
        cache = try CacheOptions(arguments, directory: Self.cacheDirectory, size: Self.cacheSize)
        decryptionKey = try arguments[Self.decryptionKey]?.hex
    }
}
