import CommandLineKit

/// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`: what it accepts. It runs in
/// `Commands/FrameCommand+Run.swift`.
struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "frame",
        abstract: "Decode the frame shown at one time; print its md5 or save it as PNG.",
        discussion: """
            Seeks exactly: jumps to the keyframe at or before the time, then decodes forward to the frame that is \
            on screen at that time. With --keyframe it stops at that keyframe instead, which is faster but shows \
            an earlier frame.

            An HLS or DASH URL (.m3u8, .mpd) seeks in the variant playback starts with (within --max-bitrate and \
            --max-resolution), from the segment that holds the time.
            """,
        examples: [
            UsageExample("playctl frame clip.mp4 --at 2.5 --md5", "Print the md5 of the frame shown at 2.5 seconds."),
            UsageExample("playctl frame clip.mp4 --at 10 -o ten.png", "Save the frame shown at 10 seconds as ten.png."),
        ])

    static var constraints: [OptionRule<Self>] {
        [.exactlyOne(\.$md5, \.$png), .requires(\.cache.$size, \.cache.$directory)]
    }

    /// What to do with the frame.
    enum Output {
        /// Print its time and md5.
        case md5
        /// Write it as a PNG file at this path.
        case png(String)
    }

    /// The file to read.
    @Argument(name: "FILE", help: PlayctlCommands.fileHelp) var path: String
    /// The time asked for, in seconds from the start of the media; never negative.
    @Option(
        name: "at", placeholder: "SECONDS", help: "The presentation time of the frame, in seconds.",
        check: .atLeast(0, "a time in seconds, 0 or more"))
    var seconds: Double
    @Flag(help: "Print the md5 of the decoded frame.") var md5: Bool
    @Option(name: "output", short: "o", placeholder: "OUT.png", help: "Write the frame as a PNG file to this path.")
    var png: String?
    /// Whether to stop at the keyframe at or before the time instead of the exact frame.
    @Flag(name: "keyframe", help: "Use the keyframe at or before the time instead of the exact frame.")
    var keyframeOnly: Bool
    /// Where the bytes of an http(s) FILE are cached.
    var cache = CacheOptions()
    /// `--max-bitrate`, `--max-resolution`: the variant limits of an HLS or DASH FILE.
    var limits = VariantLimitOptions()
    @Option(name: "decryption-key", placeholder: "HEX", help: PlayctlCommands.decryptionKeyHelp)
    var key: DecryptionKey?

    /// What to do with the frame.
    var output: Output { png.map(Output.png) ?? .md5 }
    /// `--decryption-key`'s hex digits.
    var decryptionKey: String? { key?.hex }
}
