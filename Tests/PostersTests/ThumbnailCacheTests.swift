import Foundation
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// Thumbnails kept in a poster cache: asked again, they come from it with the same bytes, within its bound.
@Suite("Thumbnails in the poster cache")
struct ThumbnailCacheTests {
    @Test("a keyframe asked again (or a time nearest the same keyframe) comes from the cache, byte for byte")
    func keyframes() async throws {
        let cache = PosterCache()
        let path = MediaFixtures.path("a.mp4")
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 160, height: 90), cache: cache)
        let first = try await generator.thumbnail(at: 4)
        #expect(!first.fromCache)
        #expect(cache.statistics.count == 1)
        let again = try await generator.thumbnail(at: 4)
        let near = try await generator.thumbnail(at: first.time.seconds + 0.05)
        for tile in [again, near] {
            #expect(tile.fromCache)
            #expect(tile.time == first.time && tile.keyframeOffset == first.keyframeOffset)
            #expect(tile.image.md5() == first.image.md5() && tile.rgba.md5() == first.rgba.md5())
        }
        #expect(cache.statistics.count == 1 && cache.statistics.hits == 2)
        // Another generator of the same file and size shares the entries; another size does not.
        let other = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 160, height: 90), cache: cache)
        #expect(try await other.thumbnail(at: 4).fromCache)
        let small = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 96, height: 54), cache: cache)
        #expect(try await !small.thumbnail(at: 4).fromCache)
        #expect(cache.statistics.count == 2)
    }

    @Test("exact frames are kept by the time asked for")
    func exact() async throws {
        let cache = PosterCache()
        let generator = ThumbnailGenerator(
            url: MediaFixtures.path("a.mp4"), options: ThumbnailOptions(width: 128, height: 72, exact: true),
            cache: cache)
        let first = try await generator.thumbnail(at: 3.7)
        let again = try await generator.thumbnail(at: 3.7)
        let later = try await generator.thumbnail(at: 3.75)
        #expect(!first.fromCache && again.fromCache && !later.fromCache)
        #expect(again.image.md5() == first.image.md5() && again.time == first.time)
    }

    @Test("a storyboard through a small cache stays within its bound, the oldest tiles evicted")
    func bound() async throws {
        // Each 160x90 tile costs 160 x 90 x 4 = 57,600 bytes; a limit of 600,000 keeps 10 (none over a tenth).
        let cache = PosterCache(costLimit: 600_000)
        let generator = ThumbnailGenerator(
            url: MediaFixtures.path("b.mp4"), options: ThumbnailOptions(width: 160, height: 90, exact: true),
            cache: cache)
        var count = 0
        for try await _ in generator.thumbnails(every: 0.25) {
            count += 1
            #expect(cache.statistics.cost <= 600_000)
        }
        #expect(count > 10)
        #expect(cache.statistics.count == 10)
        #expect(cache.statistics.evictions == count - 10)
        #expect(try await generator.thumbnail(at: 0).fromCache == false, "the first tile was evicted")
    }
}
