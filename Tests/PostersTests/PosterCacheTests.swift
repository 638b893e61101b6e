import MediaCore
import Posters
import Testing

@Suite("Poster memory cache")
struct PosterCacheTests {
    static func poster(_ name: String, side: Int) -> Poster {
        let image = VideoImage(
            width: side, height: side, pixelFormat: .rgba, bytes: [UInt8](repeating: 0, count: side * side * 4),
            planeOffsets: [0], bytesPerRow: [side * 4], time: .zero)
        return Poster(
            image: image, sourceWidth: side, sourceHeight: side, decodedWidth: side, decodedHeight: side, time: .zero,
            key: PosterRequest(source: "/\(name)").key, timings: PosterTimings(), fromCache: false)
    }

    @Test("under churn the total cost never passes the limit, and the least recently used go first")
    func churn() {
        let cache = PosterCache(costLimit: 1 << 20)
        var names: [String] = []
        for n in 0..<500 {
            let name = "p\(n)"
            cache.insert(Self.poster(name, side: 50 + (n * 37) % 100))
            names.append(name)
            // Touch an early one: it stays.
            _ = cache.poster(for: PosterRequest(source: "/p0").key)
            #expect(cache.statistics.cost <= 1 << 20)
        }
        #expect(cache.poster(for: PosterRequest(source: "/p0").key) != nil, "used all along: kept")
        #expect(cache.poster(for: PosterRequest(source: "/p1").key) == nil, "least recently used: gone")
        #expect(cache.poster(for: PosterRequest(source: "/p499").key) != nil)
        #expect(cache.statistics.evictions > 0)
    }

    @Test("a poster over a tenth of the limit is not kept; trim evicts down to a cost")
    func limits() {
        let cache = PosterCache(costLimit: 400_000)
        cache.insert(Self.poster("big", side: 200))  // 160 000 > 40 000
        #expect(cache.statistics.count == 0 && cache.statistics.refused == 1)
        for n in 0..<10 { cache.insert(Self.poster("s\(n)", side: 50)) }  // 10 000 each
        #expect(cache.statistics.cost == 100_000)
        cache.trim(toCost: 30_000)
        #expect(cache.statistics.cost == 30_000 && cache.statistics.count == 3)
        #expect(cache.poster(for: PosterRequest(source: "/s9").key) != nil)
    }
}
