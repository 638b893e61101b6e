import Foundation
import Loading
import PlaybackTesting
import Testing

/// Bytes already held are never fetched again: parts read before, and chunks a previous run left on disk.
@Suite("Partial spans are reused", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct PartialReuseTests {
    static let name = "large.bin"

    @Test("a middle range, then the whole file: every byte is fetched once")
    func middleThenWhole() throws {
        let expected = try Reading.local(Self.name)
        let cache = ByteCache()
        let url = TestHTTPServer.url(Self.name)
        let source = RemoteByteSource(url: url, cache: cache)
        defer { source.close() }
        let offset = 7_000_123  // inside a chunk: the chunk is completed later by the read from the start
        let middle = try Reading.read(source, at: Int64(offset), count: 3_000_000)
        #expect(Reading.difference(middle, expected[offset..<offset + 3_000_000]) == nil)
        try source.seek(to: 0)
        #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
        let stats = cache.currentStatistics
        #expect(stats.bytesFetched == Int64(expected.count), "no byte fetched twice: \(stats)")
        #expect(stats.transfersStarted >= 2, "the middle, then what was missing: \(stats)")
        #expect(cache.cachedRanges(of: url) == [0..<Int64(expected.count)])
    }

    @Test("a second cache on the same directory reads the first one's chunks without the network")
    func secondRunWhole() throws {
        let expected = try Reading.local(Self.name)
        let directory = try TemporaryDirectory.make(prefix: "playctl-reuse")
        defer { TemporaryDirectory.remove(directory) }
        let configuration = ByteCache.Configuration(
            memoryLimit: 4 << 20, directory: directory.path, diskLimit: 64 << 20)
        let url = TestHTTPServer.url(Self.name)
        do {
            let first = try ByteCache(configuration)
            let source = RemoteByteSource(url: url, cache: first)
            #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
            source.close()
            #expect(first.currentStatistics.bytesFetched == Int64(expected.count))
            first.flush()
        }
        let second = try ByteCache(configuration)
        #expect(second.cachedRanges(of: url) == [0..<Int64(expected.count)], "the index found every chunk")
        let source = RemoteByteSource(url: url, cache: second)
        defer { source.close() }
        #expect(source.size == Int64(expected.count), "the length comes from the stored head")
        #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
        let stats = second.currentStatistics
        #expect(stats.bytesFetched == 0, "\(stats)")
        #expect(stats.transfersStarted == 0, "\(stats)")
        #expect(stats.bytesReadFromCache == Int64(expected.count))
    }

    @Test("a second cache fetches only what the first did not store (its complete chunks are reused)")
    func secondRunPartial() throws {
        let expected = try Reading.local(Self.name)
        let directory = try TemporaryDirectory.make(prefix: "playctl-reuse")
        defer { TemporaryDirectory.remove(directory) }
        let configuration = ByteCache.Configuration(
            memoryLimit: 4 << 20, directory: directory.path, diskLimit: 64 << 20)
        let url = TestHTTPServer.url(Self.name)
        do {
            let first = try ByteCache(configuration)
            let source = RemoteByteSource(url: url, cache: first, readAhead: 1 << 20)
            let offset = 5_000_001
            let part = try Reading.read(source, at: Int64(offset), count: 2_000_000)
            #expect(Reading.difference(part, expected[offset..<offset + 2_000_000]) == nil)
            source.close()
            first.flush()
        }
        let second = try ByteCache(configuration)
        let stored = second.cachedRanges(of: url)
        let storedBytes = stored.reduce(Int64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
        // Only whole chunks go to disk: the stored span starts and ends on chunk boundaries and holds the part read.
        #expect(stored.count == 1, "\(stored)")
        #expect(stored.allSatisfy { $0.lowerBound % Int64(ByteCache.chunkSize) == 0 }, "\(stored)")
        #expect(storedBytes >= 1_500_000, "\(stored)")
        let source = RemoteByteSource(url: url, cache: second)
        defer { source.close() }
        #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
        let stats = second.currentStatistics
        #expect(stats.bytesFetched == Int64(expected.count) - storedBytes, "\(stats), stored \(stored)")
    }
}
