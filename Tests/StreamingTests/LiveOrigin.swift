import Foundation
import Loading
import PlaybackTesting

@testable import Streaming

/// A live HLS origin in virtual time, served by a real nginx: a sliding window of `window` segments of 2 s per
/// variant, written to the served folder as its clock advances (segment `n` is listed once `2(n+1)` seconds of its
/// clock have passed), the media sequence numbers the same in every variant (as one encode's packager writes them).
/// The segments themselves are never written: the tests drive a session without its download thread, only its
/// playlists come over HTTP.
final class LiveOrigin {
    let directory: URL
    var root: String { directory.path }
    let server: PrivateHTTPServer
    /// The variants' peak bit rates, lowest first; one variant makes a lone media playlist, more a master playlist.
    let bandwidths: [Int]
    let window: Int
    /// Seconds of the origin's virtual clock.
    private(set) var now = 0.0
    /// The variants whose playlists are no longer updated (their encoder stopped).
    var frozen: Set<Int> = []
    /// Whether the playlists date their segments (`#EXT-X-PROGRAM-DATE-TIME` before the first listed; segment `n`
    /// starts at 1 800 000 000 + 2n seconds since 1970) and number each variant's apart (variant `k`'s segment `n`
    /// has media sequence number `1000k + n`), as independent packagers may; else every variant numbers segment `n`
    /// as `n`, undated.
    let dated: Bool
    /// Whether the variants name an audio rendition of their own (`#EXT-X-MEDIA:TYPE=AUDIO`, `a.m3u8`, a master
    /// playlist even for one variant): its segments `a-n.ts` are listed as the variants' (dated alike; numbered
    /// `500 + n` when dated, else `n`), `audioLag` segments fewer; `audioFrozen` stops its updates.
    let audio: Bool
    var audioLag = 0
    var audioFrozen = false

    init(
        bandwidths: [Int] = [0], window: Int = 5, startSeconds: Double = 20, dated: Bool = false, audio: Bool = false,
        audioLag: Int = 0
    ) throws {
        self.dated = dated
        self.audio = audio
        self.audioLag = audioLag
        directory = try TemporaryDirectory.make(prefix: "playctl-live-origin")
        server = try PrivateHTTPServer(root: directory.path)
        self.bandwidths = bandwidths
        self.window = window
        try advance(to: startSeconds)
        if bandwidths.count > 1 || audio {
            var lines = ["#EXTM3U", "#EXT-X-INDEPENDENT-SEGMENTS"]
            if audio { lines.append(#"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="main",DEFAULT=YES,URI="a.m3u8""#) }
            for (index, bandwidth) in bandwidths.enumerated() {
                lines += [
                    "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth)" + (audio ? #",AUDIO="aud""# : ""), "v\(index).m3u8",
                ]
            }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: root + "/master.m3u8", atomically: true, encoding: .utf8)
        }
    }

    deinit {
        server.stop()
        TemporaryDirectory.remove(directory)
    }

    /// The URL a play opens: the lone media playlist, or the master playlist.
    var url: String { server.url(bandwidths.count > 1 || audio ? "master.m3u8" : "v0.m3u8") }

    /// Segments listed so far (the next one's number).
    var published: Int { Int((now / 2).rounded(.down)) }

    /// Moves the clock to `seconds` and rewrites every variant's playlist (but the frozen ones').
    func advance(to seconds: Double) throws {
        now = seconds
        if audio, !audioFrozen { try write("a", end: published - audioLag, offset: dated ? 500 : 0) }
        for variant in bandwidths.indices where !frozen.contains(variant) {
            try write("v\(variant)", end: published, offset: dated ? 1000 * variant : 0)
        }
    }

    /// Writes `name`.m3u8: the window of segments before `end` (`name-n.ts`), numbered from `offset`.
    private func write(_ name: String, end: Int, offset: Int) throws {
        let first = max(0, end - window)
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first + offset)",
        ]
        if dated {
            let date = Date(timeIntervalSince1970: 1_800_000_000 + 2 * Double(first))
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(date.formatted(.iso8601))")
        }
        for number in first..<max(first, end) { lines += ["#EXTINF:2.000,", "\(name)-\(number).ts"] }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: root + "/\(name).m3u8", atomically: true, encoding: .utf8)
    }

    /// A session on it driven by the test: no download or reload thread.
    func session(
        limits: ABRLimits = ABRLimits(), estimate: SharedBandwidthEstimate = SharedBandwidthEstimate()
    )
        throws -> StreamSession
    {
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 4 << 20), transport: HTTPLoader())
        return try StreamSession.open(
            url: url, loading: loading, limits: limits, forwardSeconds: 30, bandwidthEstimate: estimate,
            preferredAudioLanguage: nil, liveOffset: nil, startsThreads: false)
    }
}
