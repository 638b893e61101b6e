import CommandLineKit

/// `playctl frames FILE (--md5 | --count) [--json]`: what it accepts. It runs in `Commands/FramesCommand+Run.swift`.
struct FramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "frames",
        abstract: "Decode every video frame and print its md5, like ffmpeg's framemd5.",
        discussion: """
            Decodes the first video stream from start to end, in presentation order, and prints one line per \
            frame: its time in seconds from the start of the media (six decimals) and the md5 of the decoded \
            picture. The md5s equal, line by line, the last column of \
            'ffmpeg -noautorotate -i FILE -map 0:v:0 -fps_mode passthrough -f framemd5 -'.

            With --count it decodes every frame the same way but prints only how many there were, which times \
            the decoder alone (playctl-bench uses it).

            An HLS or DASH URL (.m3u8, .mpd) is read segment by segment in the variant playback starts with \
            (within --max-bitrate and --max-resolution), from start to end in that one variant.
            """,
        examples: [
            UsageExample("playctl frames clip.mp4 --md5", "Print the time and md5 of every frame of clip.mp4."),
            UsageExample("playctl frames clip.mp4 --count", "Decode clip.mp4 and print its number of frames."),
        ])

    static var constraints: [OptionRule<Self>] {
        [.exactlyOne(\.$md5, \.$count), .requires(\.cache.$size, \.cache.$directory)]
    }

    /// What to print.
    enum Mode {
        /// Time and md5 of every frame.
        case md5
        /// The number of frames only.
        case count
    }

    /// The file to decode.
    @Argument(name: "FILE", help: PlayctlCommands.fileHelp) var path: String
    @Flag(help: "Print the time and md5 of each decoded frame.") var md5: Bool
    @Flag(help: "Decode every frame and print only the number of frames.") var count: Bool
    /// Whether to print JSON instead of text.
    @Flag(name: "json", help: "Print JSON instead: {\"time\":..,\"md5\":..} per frame, or {\"frames\":N} with --count.")
    var printsJSON: Bool
    /// Where the bytes of an http(s) FILE are cached.
    var cache = CacheOptions()
    /// `--max-bitrate`, `--max-resolution`: the variant limits of an HLS or DASH FILE.
    var limits = VariantLimitOptions()
    @Option(name: "decryption-key", placeholder: "HEX", help: PlayctlCommands.decryptionKeyHelp)
    var key: DecryptionKey?

    /// What to print (the parser has checked that exactly one mode is given).
    var mode: Mode { count ? .count : .md5 }
    /// `--decryption-key`'s hex digits.
    var decryptionKey: String? { key?.hex }
}
