import CommandLineKit

/// `playctl probe FILE [--json]`: what it accepts. It runs in `Commands/ProbeCommand+Run.swift`.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "probe",
        abstract: "Show the container, duration and streams of a media file.",
        discussion: """
            Opens the file, reads enough of it to know its streams, and prints the container format, the duration, \
            and for each stream its type, codec, time base and main parameters (size and frame rate for video, \
            sample rate and channels for audio), its language and title when tagged, and the container's default \
            and forced flags. Bitmap subtitles (PGS, DVD, DVB) are listed as not rendered.

            An http(s) URL ending in .m3u8 or .mpd is an HLS or DASH presentation: the format is hls or dash, \
            each variant is listed (resolution, peak and average bit rates, codecs, frame rate) and each \
            alternative rendition, then the streams of the variant playback starts with (within --max-bitrate and \
            --max-resolution), read through its segments.
            """,
        examples: [
            UsageExample("playctl probe clip.mp4", "Describe clip.mp4."),
            UsageExample("playctl probe http://127.0.0.1:18000/a.mp4", "Describe a clip on a web server."),
            UsageExample("playctl probe clip.mp4 --json", "The same, as one JSON object."),
            UsageExample(
                "playctl probe http://127.0.0.1:18000/ladder/hls-ts/master.m3u8 --json",
                "List the variants of an HLS ladder and the streams of the one it starts with, as JSON."),
            UsageExample(
                "playctl probe film.mkv",
                "List the audio and subtitle tracks of film.mkv with their languages and flags."),
        ])

    static var constraints: [OptionRule<Self>] { [.requires(\.cache.$size, \.cache.$directory)] }

    /// The file to open.
    @Argument(name: "FILE", help: PlayctlCommands.fileHelp) var path: String
    /// Whether to print JSON instead of text.
    @Flag(name: "json", help: "Print one JSON object instead of text.") var printsJSON: Bool
    /// Where the bytes of an http(s) FILE are cached.
    var cache = CacheOptions()
    /// `--max-bitrate`, `--max-resolution`: the variant limits of an HLS or DASH FILE.
    var limits = VariantLimitOptions()
    /// `--decryption-key`.
    @Option(name: "decryption-key", placeholder: "HEX", help: PlayctlCommands.decryptionKeyHelp)
    var key: DecryptionKey?

    /// `--decryption-key`'s hex digits.
    var decryptionKey: String? { key?.hex }
}
