import Foundation
import Loading
import Playback
import PlaybackTesting
import Testing

/// HTTP caching (RFC 9111) over the disk tier, against the real server: scripts/netns.sh serves the media under
/// `/cache/no-cache/`, `/cache/max-age/` (60 s) and `/cache/no-store/` with those Cache-Control fields, and nginx
/// answers `If-None-Match` with 304 by itself. Each run is a new `ByteCache` on the same directory, as a later
/// process finds it; nginx's access log says what crossed the wire (status and bytes of every response).
@Suite(
    "HTTP caching over the disk tier",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct HTTPCachingTests {
    static let clips = ["a.mp4", "b.mp4"]

    /// A fresh cache directory, removed by the caller.
    static func directory() -> String {
        NSTemporaryDirectory() + "playctl-http-cache-\(UUID().uuidString)"
    }

    /// Plays each URL to its end (video only) through a new cache on `directory`: the frames' md5s per URL, and
    /// the cache's statistics once its disk writes are done.
    static func run(_ urls: [String], directory: String) async throws -> ([[String]], ByteCache.Statistics) {
        let cache = try ByteCache(ByteCache.Configuration(directory: directory))
        var frames: [[String]] = []
        for url in urls {
            let item = PlayerItem(url: url, loading: RemoteLoading(cache: cache))
            let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
            player.invalidate()
            #expect(item.status == .readyToPlay, "\(url): \(trace.suffix(5))")
            frames.append(md5s)
        }
        cache.flush()
        return (frames, cache.currentStatistics)
    }

    /// The logged responses containing `marker` once the `earlier` ones and the requests of a run with `statistics`
    /// are there (nginx logs a response as it ends: one per transfer and per revalidation).
    static func logged(
        _ marker: String, earlier: Int = 0, _ statistics: ByteCache.Statistics
    ) async -> [TestHTTPServer.LoggedResponse] {
        await TestHTTPServer.responses(
            containing: marker, atLeast: earlier + statistics.transfersStarted + statistics.revalidations)
    }

    @Test("no-cache: a second run over the same disk cache gets 304 for every item and fetches no media byte")
    func noCacheRevalidates() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = "nocache-\(UUID().uuidString.prefix(8))"
        let urls = Self.clips.map { TestHTTPServer.url("cache/no-cache/\($0)?\(marker)") }
        let (first, firstStats) = try await Self.run(urls, directory: directory)
        #expect(first == (try Self.clips.map { try MediaFixtures.referenceMD5s($0) }))
        let before = await Self.logged(marker, firstStats).count

        let (second, stats) = try await Self.run(urls, directory: directory)
        #expect(second == first)
        #expect(stats.bytesFetched == 0 && stats.transfersStarted == 0, "\(stats)")
        #expect(stats.revalidations >= urls.count && stats.revalidationsConfirmed == stats.revalidations, "\(stats)")
        let responses = Array(await Self.logged(marker, earlier: before, stats).dropFirst(before))
        #expect(responses.allSatisfy { $0.status == 304 && $0.bytesSent < 1024 }, "\(responses)")
        for clip in Self.clips {
            #expect(responses.contains { $0.request.contains("/\(clip)?") }, "a 304 for \(clip): \(responses)")
        }
    }

    @Test("max-age=60: a second run over the same disk cache sends no request")
    func maxAgeIsFresh() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = "maxage-\(UUID().uuidString.prefix(8))"
        let urls = Self.clips.map { TestHTTPServer.url("cache/max-age/\($0)?\(marker)") }
        let (first, firstStats) = try await Self.run(urls, directory: directory)
        #expect(first == (try Self.clips.map { try MediaFixtures.referenceMD5s($0) }))
        let before = await Self.logged(marker, firstStats).count
        #expect(before > 0)

        let (second, stats) = try await Self.run(urls, directory: directory)
        #expect(second == first)
        #expect(stats.bytesFetched == 0 && stats.transfersStarted == 0 && stats.revalidations == 0, "\(stats)")
        let responses = Array(await Self.logged(marker, earlier: before, stats).dropFirst(before))
        #expect(responses.isEmpty, "\(responses)")
    }

    @Test("the file changes on the server (a new ETag): the second run plays the new file's frames")
    func changedFileReplacesTheEntry() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = root + "/cache-tests"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = "changing-\(UUID().uuidString.prefix(8)).mp4"
        let path = folder + "/" + name
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: MediaFixtures.path("a.mp4"), toPath: path)
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = TestHTTPServer.url("cache/no-cache/cache-tests/\(name)")

        let (first, _) = try await Self.run([url], directory: directory)
        #expect(first == [try MediaFixtures.referenceMD5s("a.mp4")])
        // Another file in its place (another size: nginx's ETag is its modification time and size).
        let replacement = path + ".new"
        try FileManager.default.copyItem(atPath: MediaFixtures.path("b.mp4"), toPath: replacement)
        #expect(rename(replacement, path) == 0)

        let (second, stats) = try await Self.run([url], directory: directory)
        #expect(second == [try MediaFixtures.referenceMD5s("b.mp4")])
        #expect(stats.revalidations >= 1 && stats.revalidationsConfirmed < stats.revalidations, "\(stats)")
        #expect(stats.bytesFetched >= Int64(try MediaFixtures.bytes("b.mp4").count), "\(stats)")
    }

    @Test("Vary: X-Variant: one URL, two variants by a request header, each played from its own bytes")
    func varyOnRequestHeader() async throws {
        let cache = ByteCache()
        let url = TestHTTPServer.url("vary/clip.mp4?vary-\(UUID().uuidString.prefix(8))")
        for variant in ["a", "b", "a"] {
            let item = PlayerItem(
                url: url, headers: ["X-Variant": variant], loading: RemoteLoading(cache: cache))
            let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
            player.invalidate()
            #expect(item.status == .readyToPlay, "\(trace.suffix(5))")
            #expect(md5s == (try MediaFixtures.referenceMD5s("\(variant).mp4")), "variant \(variant)")
        }
    }

    @Test("no-cache in memory: a prefetched file read after its use ended is revalidated first (a 304), not fetched")
    func prefetchThenLaterUse() async throws {
        let loading = RemoteLoading(cache: try ByteCache(ByteCache.Configuration(useGrace: 1)))
        let url = TestHTTPServer.url("cache/no-cache/a.mp4?prefetch-\(UUID().uuidString.prefix(8))")
        let done = try await withDeadline("the prefetch of \(url) to complete") {
            await withCheckedContinuation { continuation in
                loading.prefetch(url, upTo: nil) { continuation.resume(returning: $0) }
            }
        }
        #expect(done == nil)
        let fetched = loading.cache.currentStatistics.bytesFetched
        #expect(fetched == Int64(try MediaFixtures.bytes("a.mp4").count))
        // Past the use's grace (1 s here): the next reader begins a new use.
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let source = loading.source(url)
        defer { source.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        #expect(bytes == (try MediaFixtures.bytes("a.mp4")))
        let stats = loading.cache.currentStatistics
        #expect(stats.revalidations == 1 && stats.revalidationsConfirmed == 1 && stats.bytesFetched == fetched)
    }

    @Test("no-store: nothing is written to disk; a second run fetches the file again")
    func noStoreNeverOnDisk() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = "nostore-\(UUID().uuidString.prefix(8))"
        let urls = [TestHTTPServer.url("cache/no-store/a.mp4?\(marker)")]
        let (first, firstStats) = try await Self.run(urls, directory: directory)
        #expect(first == [try MediaFixtures.referenceMD5s("a.mp4")])
        #expect(firstStats.diskBytes == 0, "\(firstStats)")
        let files = FileManager.default.enumerator(atPath: directory)?.allObjects ?? []
        #expect(files.isEmpty, "\(files)")
        let (_, stats) = try await Self.run(urls, directory: directory)
        #expect(stats.bytesFetched >= Int64(try MediaFixtures.bytes("a.mp4").count), "\(stats)")
    }
}
