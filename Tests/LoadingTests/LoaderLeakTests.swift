import Foundation
import PlaybackTesting
import Testing

@testable import Loading

/// A loader that went idle holds nothing of the process: its thread ended, its connections closed, and the caches
/// its transfers filled are freed with their last source.
@Suite("An idle loader holds nothing", .enabled(if: PrivateHTTPServer.skipReason == nil, "needs nginx"))
struct LoaderLeakTests {
    @Test("after whole, paused and failed reads, the sources closed: no thread, no socket, the cache freed")
    func idleLoaderHoldsNothing() throws {
        let root = try TemporaryDirectory.make(prefix: "playctl-leaks")
        defer { TemporaryDirectory.remove(root) }
        let file = ServerFault.bytes(seed: 3)
        try Data(file).write(to: root.appendingPathComponent("clip.bin"))
        let server = try PrivateHTTPServer(root: root.path)
        var configuration = HTTPLoader.Configuration()
        configuration.idleLifetime = 0.2
        let loader = HTTPLoader(configuration: configuration)
        #expect(loader.threadID == nil, "no thread before the first transfer")
        weak var released: ByteCache?
        var thread: pid_t = 0
        do {
            let cache = ByteCache(memoryLimit: 2 << 20)
            released = cache
            let whole = RemoteByteSource(url: server.url("clip.bin"), cache: cache, transport: loader)
            #expect(Reading.difference(try Reading.readAll(whole), file) == nil)
            // A reader with a fetch paused past its read-ahead, left open until the end.
            let paused = RemoteByteSource(
                url: server.url("clip.bin?paused"), cache: cache, transport: loader,
                readAhead: Int64(ByteCache.chunkSize))
            #expect(Reading.read(paused, limit: 1).bytes == [file[0]])
            #expect(PausedFetchTests.wait(seconds: 30) { !paused.progress.isTransferring })
            let missing = RemoteByteSource(url: server.url("missing.bin"), cache: cache, transport: loader)
            #expect(Reading.read(missing).error?.code == 404)
            thread = try #require(loader.threadID)
            #expect(LoaderResources.threadName(thread) == "playctl.http")
            for source in [whole, paused, missing] { source.close() }
        }
        #expect(LoaderResources.waitUntilReleased(loader, thread: thread, port: server.port) == nil)
        #expect(released == nil, "the cache (and its fetches and transfers) was freed")
    }
}
