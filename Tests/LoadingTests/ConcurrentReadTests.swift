import Foundation
import Loading
import PlaybackTesting
import Testing

/// Many threads read through one small cache at once: the same URLs and different ones, whole and in random
/// ranges, while the memory tier evicts under them.
@Suite("Concurrent readers through one cache", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct ConcurrentReadTests {
    /// Each worker's file: three on the 20 MB file, two on high.mp4, and three other files.
    static let names = ["large.bin", "large.bin", "large.bin", "high.mp4", "high.mp4", "hd.mp4", "a.mp4", "c.webm"]

    /// One worker: a whole read from the start, then seeded random ranges. Returns what went wrong.
    static func work(
        _ worker: Int, url: String, expected: [UInt8], cache: ByteCache
    ) -> [String] {
        var failures: [String] = []
        var random = SplitMix64(seed: UInt64(worker) &* 0x9E37_79B9)
        let source = RemoteByteSource(url: url, cache: cache, readAhead: 1 << 20)
        defer { source.close() }
        let whole = Reading.read(source, limit: min(expected.count, 4 << 20))
        if let problem = whole.error.map({ "\($0)" }) ?? Reading.difference(whole.bytes, expected.prefix(4 << 20)) {
            failures.append("worker \(worker), \(url) from 0: \(problem)")
        }
        for _ in 0..<8 {
            let offset = random.below(expected.count)
            let count = 1 + random.below(min(expected.count - offset, 1 << 20))
            do {
                try source.seek(to: Int64(offset))
            } catch {
                failures.append("worker \(worker): seek: \(error)")
            }
            let (bytes, error) = Reading.read(source, limit: count, chunk: 1 + random.below(64 << 10))
            if let problem = error.map({ "\($0)" }) ?? Reading.difference(bytes, expected[offset..<offset + count]) {
                failures.append("worker \(worker), \(url) at \(offset)+\(count): \(problem)")
            }
        }
        return failures
    }

    @Test(
        "threads on the same and different URLs read the right bytes while a small cache evicts",
        arguments: [false, true])
    func manyThreads(withDisk: Bool) async throws {
        let directory = try TemporaryDirectory.make(prefix: "playctl-concurrent")
        defer { TemporaryDirectory.remove(directory) }
        let memoryLimit = 2 << 20
        let cache = try ByteCache(
            ByteCache.Configuration(
                memoryLimit: memoryLimit, directory: withDisk ? directory.path : nil, diskLimit: 4 << 20))
        var files: [String: [UInt8]] = [:]
        for name in Set(Self.names) { files[name] = try Reading.local(name) }
        let expected = files
        let failures = await withTaskGroup(of: [String].self) { group in
            for (worker, name) in Self.names.enumerated() {
                group.addTask {
                    await Reading.onThread {
                        Self.work(worker, url: TestHTTPServer.url(name), expected: expected[name]!, cache: cache)
                    }
                }
            }
            var all: [String] = []
            for await failures in group { all += failures }
            return all
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
        // A fetch whose readers left lets its range under way come (at most a few megabytes over loopback).
        let drained = await Reading.poll(seconds: 30) { cache.currentStatistics.activeFetches == 0 }
        let stats = cache.currentStatistics
        #expect(drained, "every fetch ended with its readers and its last range: \(stats)")
        #expect(stats.memoryBytes <= memoryLimit, "\(stats)")
        #expect(stats.diskBytes <= 4 << 20, "\(stats)")
        #expect(stats.bytesRead > Int64(memoryLimit * 4), "the readers went through more than memory holds: \(stats)")
    }
}
