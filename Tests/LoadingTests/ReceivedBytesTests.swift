import Foundation
import Loading
import PlaybackTesting
import Testing

/// Bytes on the wire beside bytes kept: what the transports delivered for a cache (and a tally's URLs), whether a
/// fetch kept them or not.
@Suite("Bytes received beside bytes kept", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct ReceivedBytesTests {
    @Test("a whole read: every byte received is kept, in the cache's statistics and in a tally")
    func wholeRead() throws {
        let cache = ByteCache()
        let url = TestHTTPServer.url("a.mp4")
        let tally = cache.tally([url])
        let source = RemoteByteSource(url: url, cache: cache)
        defer { source.close() }
        let bytes = try Reading.readAll(source)
        let stats = cache.currentStatistics
        #expect(stats.bytesReceived == Int64(bytes.count) && stats.bytesFetched == Int64(bytes.count))
        #expect(tally.bytesReceived[url] == Int64(bytes.count) && tally.bytesFetched[url] == Int64(bytes.count))
    }

    @Test("a reader that leaves mid-transfer over a shaped link: received counts at least what was kept")
    func abandoned() throws {
        let cache = ByteCache()
        let url = TestHTTPServer.url("hd.mp4", over: .mbit8)
        let tally = cache.tally([url])
        let source = RemoteByteSource(url: url, cache: cache)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var read = 0
        while read < 300_000 {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            guard count > 0 else { break }
            read += count
        }
        source.close()
        let stats = cache.currentStatistics
        #expect(read >= 300_000)
        #expect(stats.bytesFetched >= Int64(read))
        #expect(stats.bytesReceived >= stats.bytesFetched)
        // The transfer's cancel takes effect on the transport's thread a little later: bytes may still come between
        // two reads, and both counts move together (under the cache's lock), so the tally read between two readings
        // of the statistics lies between them.
        let received = tally.bytesReceived[url] ?? 0
        #expect(received >= stats.bytesReceived && received <= cache.currentStatistics.bytesReceived)
    }
}
