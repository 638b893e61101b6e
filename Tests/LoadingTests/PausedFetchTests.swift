import Foundation
import Loading
import Locking
import PlaybackTesting
import Testing

/// Fetches paused at their readers' read-ahead (idle players, prefetched items) do not hold up other transfers.
@Suite(
    "Paused fetches and the connection limit", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct PausedFetchTests {
    /// Polls `condition` (blocking the thread) until it holds or `seconds` pass; whether it held.
    static func wait(seconds: Double, for condition: () -> Bool) -> Bool {
        (try? blockUntil("", timeout: .seconds(seconds), interval: .milliseconds(10), condition)) != nil
    }

    @Test("readers idle with full read-ahead on every connection to a host: another reader of that host still reads")
    func pausedFetchesDoNotStarveOthers() async throws {
        var configuration = HTTPLoader.Configuration()
        configuration.maximumConnectionsPerHost = 2
        let loader = HTTPLoader(configuration: configuration)
        let cache = ByteCache()
        // As many idle readers as the host has connections, each with a fetch paused past its read-ahead.
        let idle = (0..<configuration.maximumConnectionsPerHost).map { index in
            RemoteByteSource(
                url: TestHTTPServer.url("large.bin") + "?idle=\(index)", cache: cache, transport: loader,
                readAhead: Int64(ByteCache.chunkSize))
        }
        defer { for source in idle { source.close() } }
        for source in idle {
            #expect(Reading.read(source, limit: 1).bytes.count == 1)
            #expect(Self.wait(seconds: 30) { !source.progress.isTransferring }, "the fetch paused")
        }
        let expected = try Reading.local("hd.mp4")
        let reader = RemoteByteSource(url: TestHTTPServer.url("hd.mp4"), cache: cache, transport: loader)
        let done = DispatchSemaphore(value: 0)
        let result = Locked<[UInt8]?>(nil)
        Thread.detachNewThread {
            let bytes = try? Reading.readAll(reader)
            result.withLock { $0 = bytes }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 30) == .success
        #expect(finished, "the reader waited 20 s for a connection the paused fetches hold")
        if !finished {
            reader.close()  // unblocks the reader
            done.wait()
        }
        reader.close()
        if finished { #expect(Reading.difference(result.withLock { $0 } ?? [], expected) == nil) }
    }
}
