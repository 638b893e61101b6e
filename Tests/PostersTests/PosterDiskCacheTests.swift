import Foundation
import PlaybackTesting
import Posters
import Testing

@Suite("Poster disk cache")
struct PosterDiskCacheTests {
    @Test("a poster kept on disk serves a later pipeline without a decode, the same pixels, in either format")
    func survivesRuns() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = PosterRequest(source: MediaFixtures.path("a.mp4"), width: 96, height: 96, fit: .fill)
        let first = try await PosterPipeline(diskCache: PosterDiskCache(directory: directory.path))
            .poster(for: request)
        #expect(first.timings.decode > 0)
        let disk = try PosterDiskCache(directory: directory.path)
        #expect(disk.statistics.files == 1)
        let later = try await PosterPipeline(diskCache: disk).poster(for: request)
        #expect(later.image == first.image)
        #expect(later.timings.decode == 0 && disk.statistics.hits == 1)
        #expect((later.sourceWidth, later.sourceHeight) == (first.sourceWidth, first.sourceHeight))
        var bgra = request
        bgra.format = .bgra
        let stored = try await PosterPipeline(diskCache: disk).poster(for: bgra)
        var swapped = stored.image.bytes
        for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
        #expect(swapped == first.image.bytes)
    }

    @Test("the files stay within the byte bound, least recently used out first")
    func bound() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try PosterDiskCache(directory: directory.path, byteLimit: 60_000)
        let pipeline = PosterPipeline(diskCache: disk)
        for width in stride(from: 40, through: 200, by: 8) {
            _ = try await pipeline.poster(for: PosterRequest(source: MediaFixtures.path("c.webm"), width: width))
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let bytes = try files.reduce(0) {
                $0 + ((try FileManager.default.attributesOfItem(atPath: directory.path + "/" + $1)[.size] as? Int) ?? 0)
            }
            #expect(bytes <= 60_000 && disk.statistics.bytes == bytes)
        }
        #expect(disk.statistics.evictions > 0)
    }

    @Test("a damaged file is deleted and the poster made again")
    func damaged() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = PosterRequest(source: MediaFixtures.path("b.mp4"), width: 64)
        let made = try await PosterPipeline(diskCache: PosterDiskCache(directory: directory.path)).poster(for: request)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        let path = directory.path + "/" + name
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.removeLast(bytes.count / 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let disk = try PosterDiskCache(directory: directory.path)
        let again = try await PosterPipeline(diskCache: disk).poster(for: request)
        #expect(again.image == made.image && again.timings.decode > 0)
        #expect(disk.statistics.damaged == 1 && disk.statistics.files == 1)
    }
}
