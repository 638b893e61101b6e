import Foundation
import Loading
import PlaybackTesting
import Testing

/// The records a cache keeps of the URLs it saw are bounded in bytes too: a feed scrolled through thousands of URLs
/// does not grow the cache's map of them for ever; a tally keeps counting what was fetched for its URLs meanwhile.
@Suite("Cache records bounded in bytes", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct RecordBoundTests {
    static let recordLimit = 32 << 10
    static let urls = (0..<300).map { TestHTTPServer.url("a.mp4") + "?record=\($0)" }

    @Test("300 URLs through a cache with room for about 50 records: within the bound after every read, bytes right")
    func recordsStayWithinTheirBound() async throws {
        let expected = try Reading.local("a.mp4")
        let cache = ByteCache(memoryLimit: 1 << 20, recordLimit: Self.recordLimit)
        let tally = cache.tally([Self.urls[0], Self.urls[1]])
        let outcome = await Reading.onThread { () -> [String] in
            var problems: [String] = []
            for (index, url) in Self.urls.enumerated() {
                let source = RemoteByteSource(url: url, cache: cache)
                // The first URL whole, the others their first 4 KB (a header's worth).
                let (bytes, error) = Reading.read(source, limit: index == 0 ? .max : 4 << 10)
                source.close()
                if let error { problems.append("\(url): \(error)") }
                let wanted = index == 0 ? expected[...] : expected[..<(4 << 10)]
                if let difference = Reading.difference(bytes, wanted) { problems.append("\(url): \(difference)") }
                let stats = cache.currentStatistics
                if stats.recordBytes > Self.recordLimit {
                    problems.append("after \(url): \(stats.records) records, \(stats.recordBytes) bytes")
                }
            }
            // The first URL's record is long forgotten: read again, it is fetched again, byte for byte.
            let again = RemoteByteSource(url: Self.urls[0], cache: cache)
            let (bytes, error) = Reading.read(again)
            again.close()
            if let error { problems.append("again: \(error)") }
            if let difference = Reading.difference(bytes, expected) { problems.append("again: \(difference)") }
            return problems
        }
        #expect(outcome.count == 0, "\(outcome.prefix(5))")
        let stats = cache.currentStatistics
        #expect(stats.records < 60, "\(stats.records) records of 300 URLs")
        #expect(stats.records > 10, "the records in use and the most recent stay: \(stats.records)")
        // The tally counted both reads of the first URL, though its record was forgotten in between, and the
        // second URL's few kilobytes (a fetch brings more than the 4 KB read: what came is counted).
        let counted = tally.bytesFetched
        #expect(counted.count == 2)
        #expect(counted[Self.urls[0]] ?? 0 >= 2 * Int64(expected.count), "\(counted)")
        #expect(counted[Self.urls[1]] ?? 0 >= 4 << 10, "\(counted)")
        #expect(counted[Self.urls[1]] ?? 0 <= Int64(expected.count), "\(counted)")
    }
}
