import Foundation
import Loading
import PlaybackTesting
import Testing

/// A disk chunk that was damaged, cut short or swapped is fetched again, never played.
@Suite("Corrupted disk entries", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct DiskCorruptionTests {
    @Test("damaged, truncated and swapped chunk files are counted, refetched, and the bytes read are the file's")
    func corrupted() throws {
        let name = "hd.mp4"  // 11 chunks
        let expected = try Reading.local(name)
        let directory = try TemporaryDirectory.make(prefix: "playctl-corrupt")
        defer { TemporaryDirectory.remove(directory) }
        let configuration = ByteCache.Configuration(directory: directory.path, diskLimit: 64 << 20)
        let url = TestHTTPServer.url(name)
        do {
            let first = try ByteCache(configuration)
            let source = RemoteByteSource(url: url, cache: first)
            #expect(Reading.difference(try Reading.readAll(source), expected) == nil)
            source.close()
            first.flush()
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        try #require(folders.count == 1, "\(folders)")
        let folder = directory.path + "/" + folders[0]
        let chunkCount = (expected.count + ByteCache.chunkSize - 1) / ByteCache.chunkSize
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".chunk") }
        try #require(files.count == chunkCount, "\(files)")
        func path(_ index: Int) -> String { "\(folder)/\(index).chunk" }
        // Chunk 2: bytes flipped in the payload. Chunk 5: cut to half. Chunk 8: chunk 7's intact file in its place.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: path(2)))
        for offset in [16, 1000, 200_000] { damaged[offset] ^= 0xFF }
        try damaged.write(to: URL(fileURLWithPath: path(2)))
        let truncated = try Data(contentsOf: URL(fileURLWithPath: path(5)))
        try truncated.prefix(truncated.count / 2).write(to: URL(fileURLWithPath: path(5)))
        try Data(contentsOf: URL(fileURLWithPath: path(7))).write(to: URL(fileURLWithPath: path(8)))

        let second = try ByteCache(configuration)
        let source = RemoteByteSource(url: url, cache: second)
        let bytes = try Reading.readAll(source)
        source.close()
        second.flush()
        #expect(Reading.difference(bytes, expected) == nil)
        let stats = second.currentStatistics
        #expect(stats.corruptChunks == 3, "\(stats)")
        #expect(stats.bytesFetched == Int64(3 * ByteCache.chunkSize), "the three chunks, fetched again: \(stats)")
        #expect(stats.transfersStarted == 3, "\(stats)")

        // They were stored again, intact: a third run reads everything from disk.
        let third = try ByteCache(configuration)
        let again = RemoteByteSource(url: url, cache: third)
        defer { again.close() }
        #expect(Reading.difference(try Reading.readAll(again), expected) == nil)
        #expect(third.currentStatistics.bytesFetched == 0, "\(third.currentStatistics)")
        #expect(third.currentStatistics.corruptChunks == 0)
    }
}
