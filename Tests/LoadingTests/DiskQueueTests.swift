import Foundation
import Loading
import PlaybackTesting
import Testing

/// Chunks go to disk on the tier's writer thread through a queue bounded in bytes: a link faster than the disk
/// waits for room (before the cache's lock), nothing read is lost, and what was queued is on disk after `flush()`.
@Suite("Disk tier's write queue", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct DiskQueueTests {
    @Test("a queue of one chunk: never more queued, every chunk stored, the next cache reads all from disk")
    func oneChunkQueue() throws {
        let name = "hd.mp4"
        let expected = try Reading.local(name)
        let directory = try TemporaryDirectory.make(prefix: "playctl-disk-queue")
        defer { TemporaryDirectory.remove(directory) }
        let configuration = ByteCache.Configuration(
            memoryLimit: 2 << 20, directory: directory.path, diskLimit: 64 << 20, diskQueueLimit: ByteCache.chunkSize)
        let url = TestHTTPServer.url(name)
        let first = try ByteCache(configuration)
        let source = RemoteByteSource(url: url, cache: first)
        #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
        source.close()
        first.flush()
        let stats = first.currentStatistics
        #expect(stats.diskQueuePeakBytes <= ByteCache.chunkSize, "\(stats)")
        #expect(stats.diskQueuePeakBytes > 0, "chunks went through the queue: \(stats)")
        #expect(stats.diskWritesDropped == 0, "deliveries waited for room: \(stats)")
        #expect(stats.bytesFetched == Int64(expected.count), "nothing fetched twice: \(stats)")

        let second = try ByteCache(configuration)
        let again = RemoteByteSource(url: url, cache: second)
        defer { again.close() }
        #expect(Reading.difference(try Reading.readAll(again), expected) == nil)
        #expect(second.currentStatistics.bytesFetched == 0, "\(second.currentStatistics)")
    }

    @Test("an empty queue limit stores nothing and says so; the reads are whole")
    func noQueue() throws {
        let expected = try Reading.local("a.mp4")
        let directory = try TemporaryDirectory.make(prefix: "playctl-disk-queue")
        defer { TemporaryDirectory.remove(directory) }
        let cache = try ByteCache(
            ByteCache.Configuration(directory: directory.path, diskQueueLimit: 0))
        let source = RemoteByteSource(url: TestHTTPServer.url("a.mp4"), cache: cache)
        #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
        source.close()
        cache.flush()
        let stats = cache.currentStatistics
        #expect(stats.diskWritesDropped == (expected.count + ByteCache.chunkSize - 1) / ByteCache.chunkSize, "\(stats)")
        #expect(stats.diskBytes == 0 && Reading.filesUnder(directory.path).count == 0, "\(stats)")
    }
}
