import Foundation
import Loading
import PlaybackTesting
import Testing

/// A second reader of a URL that starts later, far behind the first, reads what the first one's fetch brought.
@Suite("Readers starting at different times", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct LateReaderTests {
    @Test("a reader starting far behind another reads the bytes before it from the cache: every byte fetched once")
    func farBehind() throws {
        let expected = try Reading.local("large.bin")
        let cache = ByteCache()
        let url = TestHTTPServer.url("large.bin")
        let first = RemoteByteSource(url: url, cache: cache)
        defer { first.close() }
        let ahead = 6 << 20
        #expect(Reading.difference(try Reading.read(first, at: 0, count: ahead), expected[0..<ahead]) == nil)
        let before = cache.currentStatistics
        let second = RemoteByteSource(url: url, cache: cache)
        defer { second.close() }
        #expect(Reading.difference(try Reading.read(second, at: 0, count: ahead), expected[0..<ahead]) == nil)
        let caughtUp = cache.currentStatistics
        #expect(caughtUp.bytesReadFromCache - before.bytesReadFromCache == Int64(ahead), "all from the cache")
        #expect(caughtUp.fetchesStarted == before.fetchesStarted, "no fetch for it: \(caughtUp)")
        // The second reader goes on past the first (the fetch now serves it), then the first finishes.
        #expect(Reading.difference(try Reading.readAll(second), expected[ahead...]) == nil)
        #expect(Reading.difference(try Reading.readAll(first), expected[ahead...]) == nil)
        // Every byte came once (the fetch paused past the first reader's read-ahead, and went on as a new
        // transfer from where it stopped when the second came near).
        let stats = cache.currentStatistics
        #expect(stats.bytesFetched == Int64(expected.count), "\(stats)")
    }

    @Test("a reader starting while another is mid-way on a slow link joins its fetch")
    func joinsMidway() async throws {
        let name = "hd.mp4"  // 2.7 MB: about 1.1 s at 20 Mbit/s
        let expected = try Reading.local(name)
        let cache = ByteCache()
        let url = TestHTTPServer.url(name, over: .mbit20)
        let first = RemoteByteSource(url: url, cache: cache)
        let second = RemoteByteSource(url: url, cache: cache)
        defer {
            first.close()
            second.close()
        }
        let started = DispatchSemaphore(value: 0)
        async let firstBytes = Reading.onThread { () -> [UInt8]? in
            let head = Reading.read(first, limit: 1 << 20)
            started.signal()
            let rest = Reading.read(first)
            return head.error == nil && rest.error == nil ? head.bytes + rest.bytes : nil
        }
        let secondBytes = await Reading.onThread { () -> [UInt8]? in
            // Starts once the first reader is 1 MB in (the first 1 MB is then cached).
            started.wait()
            return try? Reading.readAll(second)
        }
        #expect(Reading.difference(await firstBytes ?? [], expected) == nil)
        #expect(Reading.difference(secondBytes ?? [], expected) == nil)
        let stats = cache.currentStatistics
        #expect(stats.fetchesStarted == 1, "\(stats)")
        #expect(stats.bytesFetched == Int64(expected.count), "\(stats)")
    }
}
