import Foundation
import Loading
import Locking
import MediaCore
import Playback
import PlaybackTesting
import Testing

/// Broken and hostile manifests and servers, played through the stream session: a typed error naming the URL and
/// the reason, never a crash or a hang, and nothing but http(s) fetched for a remote manifest.
@Suite(
    "Adaptive streaming: faults and policy",
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct StreamFaultTests {
    /// Writes `text` as `name` in a folder of its own in the served folder; returns its URL.
    static func serve(_ name: String, _ text: String) throws -> String {
        let root = try #require(TestHTTPServer.root)
        let folder = "stream-faults-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
        try text.write(toFile: "\(root)/\(folder)/\(name)", atomically: true, encoding: .utf8)
        return TestHTTPServer.url("\(folder)/\(name)")
    }

    /// A media playlist of the ladder's 360p TS segments, with segment `replaced` (if any) named `uri` instead.
    static func playlist(replacing replaced: Int? = nil, with uri: String = "") -> String {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for index in 0..<6 {
            lines.append("#EXTINF:2.0,")
            lines.append(index == replaced ? uri : "../ladder/hls-ts/v0/seg00\(index).ts")
        }
        return (lines + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
    }

    /// Plays `url` under the untimed clock until it ends or fails; the error it failed with, and the frames shown.
    static func play(_ url: String) async throws -> (error: MediaError?, failure: String?, frames: Int) {
        let player = Player(clock: .untimed, audio: false)
        defer { player.invalidate() }
        let frames = Locked(0)
        player.add(VideoSink { _ in frames.withLock { $0 += 1 } })
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache()))
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        let failure = try await itemEnd(in: events, of: url, timeout: .seconds(60))?.kind.itemFailure
        return (item.error, failure, frames.withLock { $0 })
    }

    @Test("a remote master naming file:, concat: or data: URIs is refused, naming the URI; nothing is read")
    func localURIsRefused() async throws {
        for uri in ["file:///etc/passwd", "concat:/etc/passwd|/etc/hostname", "data:text/plain,hello"] {
            let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n\(uri)\n"
            let (error, _, frames) = try await Self.play(try Self.serve("master.m3u8", master))
            #expect(error?.kind == .refusedByPolicy, "\(uri): \(String(describing: error))")
            #expect(error?.reason.contains(uri) == true)
            #expect(frames == 0)
        }
        let media = Self.playlist(replacing: 2, with: "file:///etc/passwd")
        let (error, _, frames) = try await Self.play(try Self.serve("media.m3u8", media))
        #expect(error?.kind == .refusedByPolicy && error?.reason.contains("file:///etc/passwd") == true)
        #expect(frames == 0, "the playlist is refused as a whole, before any segment")
    }

    @Test("a missing segment fails the play where it is, naming the segment's URL (HTTP 404)")
    func missingSegment() async throws {
        let url = try Self.serve("media.m3u8", Self.playlist(replacing: 3, with: "missing-segment.ts"))
        let (error, failure, frames) = try await Self.play(url)
        #expect(error?.kind == .httpStatus && error?.code == 404, "\(String(describing: error))")
        #expect(error?.url.hasSuffix("missing-segment.ts") == true)
        #expect(failure?.contains("missing-segment.ts") == true)
        #expect(frames >= 120 && frames <= 180, "the first three segments played: \(frames) frames")
    }

    @Test("an origin that goes away mid-play fails it with a typed connection error naming the segment")
    func deadOrigin() async throws {
        let url = try Self.serve("media.m3u8", Self.playlist(replacing: 2, with: "http://127.0.0.1:9/seg002.ts"))
        let (error, _, frames) = try await Self.play(url)
        #expect(error?.kind == .connectionRefused, "\(String(describing: error))")
        #expect(error?.url == "http://127.0.0.1:9/seg002.ts")
        #expect(frames >= 60 && frames <= 120)
    }

    @Test("a missing manifest, a truncated one and one that is not a playlist: typed errors naming the URL")
    func brokenManifests() async throws {
        let missing = TestHTTPServer.url("ladder/hls-ts/nothing-here.m3u8")
        let (notFound, _, _) = try await Self.play(missing)
        #expect(notFound?.kind == .httpStatus && notFound?.url == missing, "\(String(describing: notFound))")
        let truncated = String(Self.playlist().prefix(60))
        let (cut, _, _) = try await Self.play(try Self.serve("cut.m3u8", truncated))
        #expect(cut?.kind == .malformedManifest || cut?.kind == .truncated, "\(String(describing: cut))")
        let (garbage, _, _) = try await Self.play(try Self.serve("garbage.m3u8", "<html>not a playlist</html>\n"))
        #expect(garbage?.kind == .malformedManifest, "\(String(describing: garbage))")
        let (xml, _, _) = try await Self.play(try Self.serve("broken.mpd", "<?xml version=\"1.0\"?><MPD><Period>"))
        #expect(xml?.kind == .malformedManifest, "\(String(describing: xml))")
    }

    @Test("a live playlist that stops updating ends its play with a typed stall (timed out), not a hang")
    func staleLivePlaylist() async throws {
        // The ladder's six 360p segments, without an end: a live window that never moves.
        let live = Self.playlist().replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "")
            .replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "")
        let (error, failure, frames) = try await Self.play(try Self.serve("live.m3u8", live))
        #expect(error?.kind == .timedOut, "\(String(describing: error))")
        #expect(failure?.contains("live.m3u8") == true)
        // From the live edge (three target durations before the end): the last three segments, 180 frames, but for
        // those still in the decoder when the failure ends the play.
        #expect(frames > 120 && frames <= 180, "\(frames) frames")
    }
}
