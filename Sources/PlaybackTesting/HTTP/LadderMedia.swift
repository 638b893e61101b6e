import Foundation

/// The adaptive-streaming test media `scripts/make-ladder-media.sh` makes (HLS and DASH ladders of one encode) in the
/// served folder's `ladder/`, which `scripts/netns.sh` makes before a run and serves as `/ladder/...`.
///
/// Paths are relative to the ladder's folder: `hls-ts/master.m3u8`, `hls-fmp4/master.m3u8`,
/// `hls-byterange/index.m3u8`, `dash/manifest.mpd`, `hls-aes/master.m3u8` (and `hls-aes/clear/`),
/// `hls-audio/master.m3u8` (video-only variants and an audio rendition), `hls-aes-fmp4/index.m3u8` (fMP4 under
/// AES-128, its initialization section encrypted), `long-ts/` and `long-dash/` (60 s), `progressive/<rung>.mp4`; the folder's
/// `README.txt` lists them with the rates measured.
public enum LadderMedia {
    /// One rung of the ladder: a rendition of the same 12 s at one size and video bit rate.
    public struct Rung: Sendable, Equatable {
        /// Its name, also its progressive file's (`progressive/360p.mp4`).
        public var name: String
        /// The picture's width in pixels.
        public var width: Int
        /// The picture's height in pixels.
        public var height: Int
        /// The video bit rate the encoder aimed at (bits per second; audio is 96 kbit/s on top).
        public var videoBitsPerSecond: Int
    }

    /// The rungs, lowest first: variant `vN/` of the HLS ladders and Representation `N` of the DASH one.
    public static let rungs: [Rung] = [
        Rung(name: "360p", width: 640, height: 360, videoBitsPerSecond: 800_000),
        Rung(name: "540p", width: 960, height: 540, videoBitsPerSecond: 1_600_000),
        Rung(name: "720p", width: 1280, height: 720, videoBitsPerSecond: 3_000_000),
        Rung(name: "1080p", width: 1920, height: 1080, videoBitsPerSecond: 5_000_000),
    ]

    /// The duration of every rendition, in seconds.
    public static let duration = 12.0

    /// The duration of every segment, in seconds (a keyframe starts each).
    public static let segmentDuration = 2.0

    /// The AES-128 key of `hls-aes/` (also in its `v0/key.bin` and `v1/key.bin`).
    public static let key: [UInt8] = Array(0..<16)

    /// The ladder's folder: `ladder/` of the served folder (`PLAYCTL_HTTP_ROOT`) when the server runs, else the
    /// repository's `.build/http-media/ladder`.
    public static var directory: String {
        if let root = TestHTTPServer.root { return "\(root)/ladder" }
        return Repository.path(".build/http-media/ladder")
    }

    /// The local path of `relativePath` in the ladder.
    public static func path(_ relativePath: String) -> String { "\(directory)/\(relativePath)" }

    /// The URL of `relativePath` in the ladder on the test server, over `link`.
    public static func url(_ relativePath: String, over link: TestHTTPServer.Link = .unshaped) -> String {
        TestHTTPServer.url("ladder/\(relativePath)", over: link)
    }

    /// Whether the ladder was made (its `README.txt`, written last, is there).
    public static var isPresent: Bool { FileManager.default.fileExists(atPath: path("README.txt")) }

    /// Why tests of the ladder's files skip here (printed, so a skip is never silent); nil when they run: when the
    /// ladder is present, and always inside `scripts/netns.sh`, which makes it (a ladder missing there fails them).
    public static var skipReason: String? {
        guard !TestHTTPServer.isAvailable, !isPresent else { return nil }
        let reason =
            "no ladder media at \(directory): run the tests through scripts/netns.sh (scripts/test.sh does), "
            + "or scripts/make-ladder-media.sh"
        FileHandle.standardError.write(Data("WARNING: ladder tests skipped: \(reason)\n".utf8))
        return reason
    }
}
