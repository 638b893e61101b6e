import Foundation
import Loading
import Locking
import MediaCore
import PlaybackTesting
import Streaming
import Testing

/// A stream session's alternative audio rendition (`hls-audio/`, the DASH ladder's audio AdaptationSet) read through
/// `SegmentedStream(audioOf:)` over nginx (scripts/netns.sh): its bytes are the rendition's files in order, each
/// fetched once (the downloads ahead and the reader share them), and a reposition starts at the segment holding
/// the time.
@Suite(
    "Stream session: separate audio rendition", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct AudioRenditionStreamTests {
    /// The ladder under a name of its own in the served folder (its requests told apart in nginx's log).
    static func privateLadder() throws -> String {
        let root = try #require(TestHTTPServer.root)
        let name = "ladder-audio-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createSymbolicLink(
            atPath: "\(root)/\(name)", withDestinationPath: LadderMedia.directory)
        return name
    }

    /// Every byte `stream` gives until its end.
    static func readAll(_ stream: SegmentedStream) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// The rendition's files in the ladder, in order: its initialization section and segments.
    static func files(_ manifest: String) -> [String] {
        if manifest.hasPrefix("dash") {
            return ["dash/init-stream4.m4s"] + (1...6).map { "dash/chunk-stream4-0000\($0).m4s" }
        }
        return ["hls-audio/audio/init.mp4"] + (0...6).map { String(format: "hls-audio/audio/seg%03d.m4s", $0) }
    }

    @Test(
        "the audio segments are downloaded ahead beside the video's; its bytes are its files, each fetched once",
        arguments: ["dash/manifest.mpd", "hls-audio/master.m3u8"])
    func readsOnce(manifest: String) async throws {
        let ladder = try Self.privateLadder()
        let session = try StreamSession.open(
            url: TestHTTPServer.url("\(ladder)/\(manifest)"), loading: RemoteLoading(cache: ByteCache()),
            limits: ABRLimits(preferredPeakBitRate: 1_200_000))
        defer { session.close() }
        let rendition = try #require(session.audioRendition)
        #expect(rendition.kind == .audio)
        let video = SegmentedStream(session: session, drivesDownloads: true)
        let videoBytes = try Self.readAll(video)
        // The session downloaded the audio ahead (12 s, within its 30 s forward buffer) before any audio reader.
        let segments = Self.files(manifest).dropFirst()
        try await waitUntil("the audio segments downloaded ahead", timeout: .seconds(30)) {
            let logged = TestHTTPServer.responses(containing: "/\(ladder)/").map(\.request)
            return segments.allSatisfy { file in logged.contains { $0.contains("/\(ladder)/\(file) ") } }
        }
        let audio = SegmentedStream(audioOf: session)
        let audioBytes = try Self.readAll(audio)
        #expect(videoBytes.count > 500_000)
        let expected = try Self.files(manifest).flatMap {
            Array(try Data(contentsOf: URL(fileURLWithPath: LadderMedia.path($0))))
        }
        #expect(audioBytes == expected, "\(audioBytes.count) bytes, not \(expected.count)")
        let requests = TestHTTPServer.responses(containing: "/\(ladder)/")
        var seen: [String: Int] = [:]
        for request in requests { seen[request.request, default: 0] += 1 }
        #expect(seen.values.allSatisfy { $0 == 1 }, "each once: \(seen.filter { $0.value > 1 })")
        for file in Self.files(manifest) {
            #expect(seen.keys.contains { $0.contains("/\(ladder)/\(file) ") }, "\(file) fetched")
        }
    }

    @Test("a reposition starts the audio stream at the rendition's segment that holds the time, after its init")
    func repositions() throws {
        let session = try StreamSession.open(
            url: LadderMedia.url("hls-audio/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        defer { session.close() }
        let audio = SegmentedStream(audioOf: session)
        // The rendition's segments last 2.005333 s but the fourth (1.984 s): 7.5 s is in the fourth, from 6.016 s.
        let start = try audio.reposition(toSeconds: 7.5)
        #expect(abs(start - 6.016) < 0.001, "\(start)")
        let bytes = try Self.readAll(audio)
        let expected = try [
            "hls-audio/audio/init.mp4", "hls-audio/audio/seg003.m4s", "hls-audio/audio/seg004.m4s",
            "hls-audio/audio/seg005.m4s", "hls-audio/audio/seg006.m4s",
        ].flatMap {
            Array(try Data(contentsOf: URL(fileURLWithPath: LadderMedia.path($0))))
        }
        #expect(bytes == expected, "\(bytes.count) bytes, not \(expected.count)")
    }

    @Test("a prefetch holds the audio rendition's playlist, initialization section and first segment too")
    func prefetch() async throws {
        let ladder = try Self.privateLadder()
        let url = TestHTTPServer.url("\(ladder)/hls-audio/master.m3u8")
        let loading = RemoteLoading(cache: ByteCache())
        let outcome = Locked<MediaError??>(nil)
        StreamPrefetch.start(url, loading: loading, segments: 1) { error in outcome.withLock { $0 = .some(error) } }
        try await waitUntil("the prefetch ended", timeout: .seconds(30)) { outcome.withLock { $0 != nil } }
        #expect(outcome.withLock { $0 } == .some(nil), "\(String(describing: outcome.withLock { $0 }))")
        let logged = TestHTTPServer.responses(containing: "/\(ladder)/").map(\.request)
        for file in ["audio/index.m3u8", "audio/init.mp4", "audio/seg000.m4s"] {
            #expect(logged.contains { $0.contains("/\(ladder)/hls-audio/\(file) ") }, "\(file): \(logged)")
        }
        #expect(!logged.contains { $0.contains("audio/seg001") }, "one segment")
        // A session of the same cache reads them from it: nothing fetched twice.
        let session = try StreamSession.open(url: url, loading: loading)
        defer { session.close() }
        let first = try Self.readAll(SegmentedStream(audioOf: session)).count
        #expect(first > 0)
        var seen: [String: Int] = [:]
        for request in TestHTTPServer.responses(containing: "/\(ladder)/hls-audio/audio/") {
            seen[request.request + " " + request.range, default: 0] += 1
        }
        #expect(seen.count == 9 && seen.values.allSatisfy { $0 == 1 }, "each once: \(seen)")
    }

    @Test("a master whose variants carry their audio (hls-fmp4) has no audio rendition")
    func muxed() throws {
        let session = try StreamSession.open(
            url: LadderMedia.url("hls-fmp4/master.m3u8"), loading: RemoteLoading(cache: ByteCache()))
        defer { session.close() }
        #expect(session.audioRendition == nil)
    }
}
