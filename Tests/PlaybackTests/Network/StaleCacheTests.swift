import Foundation
import Loading
import Playback
import PlaybackTesting
import Testing

/// Stale bytes on disk when the server cannot be reached (RFC 9111 section 4.2.4): used, unless the response said
/// `must-revalidate`. A private nginx serves the file with `max-age=0` (stale at once), then stops.
@Suite("Stale bytes without a server", .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct StaleCacheTests {
    /// A server of a folder holding a.mp4, and the cache directory, filled by a play; the server is stopped after.
    static func filled(cacheControl: String) async throws -> (PrivateHTTPServer, String, String, String) {
        let root = NSTemporaryDirectory() + "playctl-stale-root-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: MediaFixtures.path("a.mp4"), toPath: root + "/a.mp4")
        let server = try PrivateHTTPServer(root: root, cacheControl: cacheControl)
        let directory = HTTPCachingTests.directory()
        let url = server.url("a.mp4")
        let (frames, _) = try await HTTPCachingTests.run([url], directory: directory)
        #expect(frames == [try MediaFixtures.referenceMD5s("a.mp4")])
        server.stop()
        return (server, root, directory, url)
    }

    @Test("max-age=0: the revalidation finds no server, the stale bytes play")
    func staleServed() async throws {
        let (server, root, directory, url) = try await Self.filled(cacheControl: "max-age=0")
        defer {
            _ = server
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let (frames, stats) = try await HTTPCachingTests.run([url], directory: directory)
        #expect(frames == [try MediaFixtures.referenceMD5s("a.mp4")])
        #expect(stats.revalidations >= 1 && stats.revalidationsConfirmed == 0 && stats.bytesFetched == 0, "\(stats)")
    }

    @Test("max-age=0, must-revalidate: no server, no play: the item fails with the connection's error")
    func mustRevalidateFails() async throws {
        let (server, root, directory, url) = try await Self.filled(cacheControl: "max-age=0, must-revalidate")
        defer {
            _ = server
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: directory)
        }
        let cache = try ByteCache(ByteCache.Configuration(directory: directory))
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: cache))
        let (frames, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        player.invalidate()
        #expect(frames.isEmpty)
        #expect(item.status == .failed, "\(trace.suffix(5))")
        #expect(item.error?.kind == .connectionRefused && item.error?.url == url, "\(String(describing: item.error))")
        #expect(cache.currentStatistics.revalidations >= 1)
    }
}
