import Foundation
import Loading
import PlaybackTesting
import Testing

/// The memory and disk tiers stay within their byte bounds while many resources churn through one small cache.
@Suite("Cache bounds under churn", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct CacheBoundsTests {
    static let memoryLimit = 2 << 20
    static let diskLimit = 4 << 20
    /// The served clips and a 20 MB file (five times the disk tier, ten times the memory tier).
    static let names = [
        "a.mp4", "b.mp4", "c.webm", "offset.ts", "rotated.mp4", "tone.m4a", "hd.mp4", "high.mp4", "large.bin",
    ]

    /// What broke a bound, at most a few (the first), and how many times.
    final class Breaches {
        private(set) var first: [String] = []
        private(set) var count = 0

        func record(_ what: String) {
            count += 1
            if first.count < 5 { first.append(what) }
        }
    }

    /// Checks the statistics' bounds: memory within its limit plus one chunk per fetch under way and one for the
    /// open reader (the chunk it reads next stays: docs/network.md), disk within its limit.
    static func checkStatistics(_ cache: ByteCache, _ breaches: Breaches, _ context: String) {
        let stats = cache.currentStatistics
        let memoryBound = memoryLimit + ByteCache.chunkSize * (stats.activeFetches + 1)
        if stats.memoryBytes > memoryBound {
            breaches.record("\(context): memory \(stats.memoryBytes) > \(memoryBound) (\(stats.activeFetches) fetches)")
        }
        if stats.diskBytes > diskLimit { breaches.record("\(context): disk \(stats.diskBytes) > \(diskLimit)") }
    }

    @Test("every read of many resources, whole and in parts, leaves both tiers and the directory within their bounds")
    func churn() throws {
        let directory = try TemporaryDirectory.make(prefix: "playctl-cache-bounds")
        defer { TemporaryDirectory.remove(directory) }
        let cache = try ByteCache(
            ByteCache.Configuration(memoryLimit: Self.memoryLimit, directory: directory.path, diskLimit: Self.diskLimit)
        )
        let breaches = Breaches()
        var random = SplitMix64(seed: 0x5EED)
        var reads = 0
        for round in 0..<2 {
            // Each file under a few URLs (nginx ignores the query): more resources, each with its own entry.
            for variant in 0..<3 {
                for name in Self.names.shuffled(using: &random) {
                    let expected = try Reading.local(name)
                    let url = TestHTTPServer.url(name) + "?variant=\(variant)"
                    let source = RemoteByteSource(url: url, cache: cache)
                    let context = "round \(round), \(url)"
                    let afterRead = {
                        reads += 1
                        Self.checkStatistics(cache, breaches, context)
                    }
                    if random.bool() {
                        let (bytes, error) = Reading.read(source, chunk: 64 << 10, afterEach: afterRead)
                        #expect(error == nil, "\(context): \(String(describing: error))")
                        #expect(Reading.difference(bytes, expected) == nil, "\(context): the bytes differ")
                    } else {
                        for _ in 0..<3 {
                            let offset = random.below(expected.count)
                            let count = 1 + random.below(min(expected.count - offset, 3 << 20))
                            try source.seek(to: Int64(offset))
                            let (bytes, error) = Reading.read(source, limit: count, afterEach: afterRead)
                            #expect(error == nil, "\(context): \(String(describing: error))")
                            #expect(
                                Reading.difference(bytes, expected[offset..<offset + count]) == nil,
                                "\(context): the bytes differ")
                        }
                    }
                    source.close()
                    // No fetch writes after its reader closed: once the writer thread wrote what was queued, the
                    // directory holds what the disk tier counts.
                    cache.flush()
                    let files = Reading.filesUnder(directory.path)
                    if files.bytes > Self.diskLimit {
                        breaches.record("\(context): \(files.bytes) bytes in \(files.count) files > \(Self.diskLimit)")
                    }
                    let stats = cache.currentStatistics
                    #expect(stats.diskBytes == files.bytes, "\(context): the tier counts \(stats.diskBytes) bytes")
                }
            }
        }
        // Then many small resources, one chunk each: the disk tier turns over many times.
        for variant in 0..<150 {
            let url = TestHTTPServer.url("b.mp4") + "?many=\(variant)"
            let source = RemoteByteSource(url: url, cache: cache)
            let (bytes, error) = Reading.read(
                source,
                afterEach: {
                    reads += 1
                    Self.checkStatistics(cache, breaches, url)
                })
            source.close()
            #expect(error == nil && bytes.count == 41461, "\(url): \(String(describing: error))")
            let files = Reading.filesUnder(directory.path)
            if files.bytes > Self.diskLimit {
                breaches.record("\(url): \(files.bytes) bytes in \(files.count) files > \(Self.diskLimit)")
            }
        }
        #expect(reads > 1000)
        #expect(breaches.count == 0, "\(breaches.count) breaches, first: \(breaches.first)")
        let stats = cache.currentStatistics
        #expect(stats.bytesFetched > Int64(Self.diskLimit), "the churn went through more than the disk holds")
    }
}
