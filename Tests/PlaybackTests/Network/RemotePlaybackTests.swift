import Foundation
import Loading
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// Players of http(s) items, against the real server (nginx on the loopback, through scripts/netns.sh).
@Suite("Playback over HTTP", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RemotePlaybackTests {
    /// Plays `item` to its end under the untimed clock, recording the md5 of every frame shown and the trace; throws
    /// (the player invalidated) if it neither ends nor fails within 120 s.
    static func playToEnd(
        _ item: PlayerItem, audio: Bool = true
    ) async throws -> (md5s: [String], trace: [String], player: Player) {
        let player = Player(clock: .untimed, audio: audio)
        let md5s = Locked<[String]>([])
        player.add(VideoSink { frame in md5s.withLock { $0.append(frame.md5()) } })
        let recorder = TraceRecorder(player)
        let ended = player.events()
        player.replaceCurrentItem(with: item)
        player.play()
        do {
            _ = try await itemEnd(in: ended, of: item.url)
        } catch {
            player.invalidate()
            throw error
        }
        await player.callbacksDelivered()
        return (md5s.withLock { $0 }, await recorder.snapshot(), player)
    }

    @Test(
        "every clip plays over HTTP with frames bit-identical to ffmpeg's decode of the file",
        arguments: MediaFixtures.videoClips)
    func bitIdentical(clip: String) async throws {
        let loading = RemoteLoading(cache: ByteCache())
        let item = PlayerItem(url: TestHTTPServer.url(clip), loading: loading)
        let (md5s, trace, player) = try await Self.playToEnd(item)
        defer { player.invalidate() }
        #expect(item.status == .readyToPlay, "\(trace)")
        #expect(md5s == (try MediaFixtures.referenceMD5s(clip)), "\(clip): \(md5s.count) frames")
        let size = try MediaFixtures.bytes(clip).count
        #expect(loading.cache.currentStatistics.bytesFetched <= Int64(size), "no byte fetched twice")
    }

    @Test("a file whose moov is at its end plays over HTTP (b.mp4)")
    func moovAtTheEnd() async throws {
        let bytes = try MediaFixtures.bytes("b.mp4")
        let text = String(decoding: bytes, as: UTF8.self)
        let moov = try #require(text.range(of: "moov"))
        let mdat = try #require(text.range(of: "mdat"))
        try #require(moov.lowerBound > mdat.lowerBound, "b.mp4 keeps its moov after its media data")
        let item = PlayerItem(
            url: TestHTTPServer.url("b.mp4", over: .mbit20), loading: RemoteLoading(cache: ByteCache()))
        let (md5s, _, player) = try await Self.playToEnd(item)
        defer { player.invalidate() }
        #expect(md5s == (try MediaFixtures.referenceMD5s("b.mp4")))
    }

    @Test("exact seeks over HTTP land on the frames ffmpeg shows at those times")
    func exactSeeks() async throws {
        let clock = ManualClock()
        let player = Player(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        player.replaceCurrentItem(
            with: PlayerItem(url: TestHTTPServer.url("a.mp4"), loading: RemoteLoading(cache: ByteCache())))
        await clock.advance(by: .zero)
        let reference = try MediaFixtures.referenceMD5s("a.mp4")
        for (target, index) in [(3.5, 105), (0.1, 3), (5.9, 177), (4.0, 120), (1.25, 37)] {
            #expect(await player.seek(to: MediaTime(seconds: target), toleranceBefore: .zero, toleranceAfter: .zero))
            #expect(layer.currentFrame?.md5() == reference[index], "at \(target) s")
        }
    }

    @Test("two players of one URL fetch it once")
    func twoPlayersOneFetch() async throws {
        let loading = RemoteLoading(cache: ByteCache())
        let url = TestHTTPServer.url("a.mp4", over: .mbit20)
        async let first = Self.playToEnd(PlayerItem(url: url, loading: loading), audio: true)
        async let second = Self.playToEnd(PlayerItem(url: url, loading: loading), audio: true)
        let results = try await [first, second]
        for result in results { result.player.invalidate() }
        let reference = try MediaFixtures.referenceMD5s("a.mp4")
        #expect(results.allSatisfy { $0.md5s == reference })
        #expect(loading.cache.currentStatistics.bytesFetched == Int64(try MediaFixtures.bytes("a.mp4").count))
    }

    @Test("HTTP errors, refused connections and stalled servers fail the item with a typed error naming the URL")
    func failures() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.stallTimeout = 1
        let loader = HTTPLoader(configuration: configuration)
        let cases: [(String, MediaError.Kind)] = [
            (TestHTTPServer.url("missing.mp4"), .httpStatus), (TestHTTPServer.url("status/500"), .httpStatus),
            ("http://127.0.0.1:1/a.mp4", .connectionRefused), (TestHTTPServer.url("stall/a.mp4"), .timedOut),
        ]
        for (url, kind) in cases {
            let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache(), transport: loader))
            let (_, trace, player) = try await Self.playToEnd(item)
            defer { player.invalidate() }
            #expect(item.status == .failed, "\(url): \(trace)")
            #expect(item.error?.kind == kind, "\(url): \(String(describing: item.error))")
            #expect(item.error?.url == url)
            #expect(trace.contains { $0.contains("item.status") && $0.contains("failed") && $0.contains(url) })
            #expect(player.timeControlStatus == .paused)
        }
    }
}
