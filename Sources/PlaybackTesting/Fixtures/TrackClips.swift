import Foundation

/// The clips of `Media/tracks/` (`Media/make-media.sh`) and what they hold: two audio languages and two subtitle
/// tracks in MP4 (mov_text) and Matroska (SubRip and ASS), sidecar subtitles, a video whose frame size changes, and
/// an MPEG-TS with timed ID3 metadata (`id3.ts`: its samples are those `Media/make-id3.py` writes).
public enum TrackClips {
    /// `tracks.mp4` and `tracks.mkv`: stream 0 video (160x120, 25 fps, 4 s), 1 English audio (440 Hz, default),
    /// 2 French audio (880 Hz), 3 English subtitles, 4 French subtitles (ASS and forced in the Matroska file).
    public static let clips = ["tracks.mp4", "tracks.mkv"]

    /// The path of `name` in `Media/tracks/`.
    public static func path(_ name: String) -> String {
        MediaFixtures.path("tracks/\(name)")
    }

    /// A cue as the tests expect it: start and end in seconds, and its plain text.
    public struct Cue: Sendable, Equatable, CustomStringConvertible {
        public var start: Double
        public var end: Double
        public var text: String

        public init(_ start: Double, _ end: Double, _ text: String) {
            self.start = start
            self.end = end
            self.text = text
        }

        public var description: String { "\(start)-\(end) \(text)" }

        /// The same cue `seconds` later.
        public func shifted(by seconds: Double) -> Cue { Cue(start + seconds, end + seconds, text) }

        /// Equal within a millisecond.
        public func matches(_ other: Cue) -> Bool {
            abs(start - other.start) < 0.001 && abs(end - other.end) < 0.001 && text == other.text
        }
    }

    /// How much later than written in the source subtitles a clip's cues come in media time: ffmpeg's Matroska
    /// muxer moved every timestamp 0.021 s later (the AAC encoder's delay: no timestamp may be negative).
    public static func mediaOffset(_ clip: String) -> Double { clip.hasSuffix(".mkv") ? 0.021 : 0 }

    /// Whether `cues` match `expected` one for one (within a millisecond).
    public static func matches(_ cues: [Cue], _ expected: [Cue]) -> Bool {
        cues.count == expected.count && zip(cues, expected).allSatisfy { $0.matches($1) }
    }

    /// The English track (`tracks.srt`, muxed into both clips).
    public static let englishCues = [
        Cue(0.5, 1.5, "Hello, world."), Cue(2.0, 3.0, "Second line\non two rows."), Cue(3.2, 3.8, "The end."),
    ]
    /// The French track (SubRip in the MP4, ASS with styles in the Matroska file).
    public static let frenchCues = [Cue(0.7, 1.7, "Bonjour, le monde."), Cue(2.5, 3.5, "Deuxième\nligne.")]
    /// The French track of the MP4 (from SubRip: one line).
    public static let frenchCuesMP4 = [Cue(0.7, 1.7, "Bonjour, le monde."), Cue(2.5, 3.5, "Deuxième ligne.")]
    /// The sidecar `tracks.vtt`.
    public static let sidecarCues = [Cue(1.0, 2.0, "Sidecar one."), Cue(2.5, 3.25, "Sidecar two.")]

    /// The md5 of audio track `index` (0 or 1) of `clip` decoded by ffmpeg to interleaved 32-bit float
    /// (`Media/ref/<clip>.a<index>.f32le.md5`).
    /// - Throws: when the reference cannot be read.
    public static func audioMD5(_ clip: String, track index: Int) throws -> String {
        try MediaFixtures.text("ref/\(clip).a\(index).f32le.md5").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A copy of `tracks.mkv` in `directory` whose English SubRip cues hold a Latin-1 byte each (as a file written
    /// in Latin-1 does): libavcodec refuses every one of them as invalid UTF-8, so that track is broken while the
    /// rest of the file plays.
    /// - Throws: when the clip cannot be read or the copy written.
    public static func latin1Copy(in directory: URL) throws -> String {
        let latin1 = { (text: String) in text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
        return try patchedCopy(
            [
                ("Hello, ", latin1("Hello\u{E9} ")), ("Second line", latin1("Second lin\u{E9}")),
                ("The end.", latin1("Th\u{E9} end.")),
            ],
            named: "latin1.mkv", in: directory)
    }

    /// A copy of `tracks.mkv` in `directory` whose French subtitle track is declared as PGS (Blu-ray bitmap
    /// subtitles: its codec ID `S_TEXT/ASS` made `S_HDMV/PGS`), for what a player does with bitmap subtitles.
    /// - Throws: when the clip cannot be read or the copy written.
    public static func bitmapCopy(in directory: URL) throws -> String {
        try patchedCopy([("S_TEXT/ASS", Array("S_HDMV/PGS".utf8))], named: "bitmap.mkv", in: directory)
    }

    /// `tracks.mkv` with each text replaced by bytes of the same length, written as `name` in `directory`.
    private static func patchedCopy(
        _ patches: [(String, [UInt8])], named name: String, in directory: URL
    ) throws -> String {
        var bytes = try MediaFixtures.bytes("tracks/tracks.mkv")
        for (text, replacement) in patches {
            let old = Array(text.utf8)
            guard old.count == replacement.count,
                let start = (0...(bytes.count - old.count)).first(where: {
                    bytes[$0..<$0 + old.count].elementsEqual(old)
                })
            else { throw FixtureError("tracks.mkv holds no \"\(text)\" to replace") }
            bytes.replaceSubrange(start..<start + old.count, with: replacement)
        }
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `sizechange.ts`: 25 frames at 320x240, then 25 at 640x360.
    public static let sizeChange = "sizechange.ts"
}
