import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Posters
import Testing

@Suite("Poster pipeline: sizes, formats, errors, the cache")
struct PosterPipelineTests {
    static func poster(
        _ request: PosterRequest, in pipeline: PosterPipeline = PosterPipeline()
    ) async throws
        -> Poster
    {
        try await pipeline.poster(for: request)
    }

    @Test("fit keeps the whole picture inside the size; fill covers it and crops to it")
    func fitAndFill() async throws {
        let path = MediaFixtures.path("a.mp4")  // 640x360
        let fit = try await Self.poster(PosterRequest(source: path, width: 100, height: 100, fit: .fit))
        #expect((fit.image.width, fit.image.height) == (100, 56))
        let fill = try await Self.poster(PosterRequest(source: path, width: 100, height: 100, fit: .fill))
        #expect((fill.image.width, fill.image.height) == (100, 100))
        let wide = try await Self.poster(PosterRequest(source: path, width: 160, fit: .fit))
        #expect((wide.image.width, wide.image.height) == (160, 90))
        let natural = try await Self.poster(PosterRequest(source: path))
        #expect((natural.image.width, natural.image.height) == (640, 360))
        #expect(natural.image.bytes.count == 640 * 360 * 4 && natural.image.bytesPerRow == [640 * 4])
        #expect((fit.sourceWidth, fit.sourceHeight) == (640, 360))
    }

    @Test("a rotated video's poster is turned as a viewer shows it")
    func rotated() async throws {
        let natural = try await Self.poster(PosterRequest(source: MediaFixtures.path("rotated.mp4")))
        let demuxer = try Demuxer(url: MediaFixtures.path("rotated.mp4"))
        let track = try #require(demuxer.videoTrack)
        #expect((natural.image.width, natural.image.height) == (track.height!, track.width!))
    }

    @Test("RGBA and BGRA are the same pixels with red and blue swapped")
    func formats() async throws {
        let path = MediaFixtures.path("a.mp4")
        let rgba = try await Self.poster(PosterRequest(source: path, width: 64, format: .rgba))
        let bgra = try await Self.poster(PosterRequest(source: path, width: 64, format: .bgra))
        #expect(rgba.image.bytes.count == bgra.image.bytes.count)
        var swapped = bgra.image.bytes
        for i in stride(from: 0, to: swapped.count, by: 4) { swapped.swapAt(i, i + 2) }
        #expect(swapped == rgba.image.bytes)
    }

    @Test("JPEG, PNG, WebP and GIF images decode; a large JPEG shown small is decoded reduced")
    func images() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["i.jpg", "i.png", "i.webp", "i.gif"] {
            let path = try PosterImages.make(name, width: 320, height: 240, in: directory)
            let poster = try await Self.poster(PosterRequest(source: path, width: 160, height: 160))
            #expect((poster.image.width, poster.image.height) == (160, 120), "\(name)")
            #expect((poster.sourceWidth, poster.sourceHeight) == (320, 240), "\(name)")
        }
        let big = try PosterImages.make("big.jpg", width: 4000, height: 3000, in: directory)
        let small = try await Self.poster(PosterRequest(source: big, width: 132, height: 132, fit: .fill))
        #expect((small.image.width, small.image.height) == (132, 132))
        #expect((small.decodedWidth, small.decodedHeight) == (500, 375), "decoded at an eighth, not 4000x3000")
        let whole = try await Self.poster(PosterRequest(source: big))
        #expect((whole.decodedWidth, whole.decodedHeight) == (4000, 3000))
    }

    @Test("broken and missing sources fail with a typed error naming them, and nothing is cached")
    func brokenSources() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpeg = try PosterImages.make("cut.jpg", width: 320, height: 240, in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        try bytes.prefix(200).write(to: URL(fileURLWithPath: jpeg))
        let garbage = directory.appendingPathComponent("garbage.png").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: URL(fileURLWithPath: garbage))
        let pipeline = PosterPipeline()
        for path in [jpeg, garbage, directory.appendingPathComponent("missing.mp4").path] {
            do {
                _ = try await pipeline.poster(for: PosterRequest(source: path, width: 64))
                Issue.record("\(path) made a poster")
            } catch {
                #expect(error.url == path)
                #expect(error.kind != .cancelled)
            }
        }
        #expect(pipeline.cache.statistics.count == 0)
        #expect(pipeline.statistics.failures == 3)
    }

    @Test("a second request is a cache hit; the same request at another size is another key")
    func cacheHits() async throws {
        let pipeline = PosterPipeline()
        let request = PosterRequest(source: MediaFixtures.path("c.webm"), width: 80)
        let first = try await pipeline.poster(for: request)
        let second = try await pipeline.poster(for: request)
        #expect(!first.fromCache && second.fromCache)
        #expect(first.image == second.image)
        _ = try await pipeline.poster(for: PosterRequest(source: MediaFixtures.path("c.webm"), width: 81))
        let statistics = pipeline.statistics
        #expect(statistics.cacheHits == 1 && statistics.fetches == 2 && statistics.decodes == 2)
        #expect(statistics.stages["decode"]?.count == 2)
        #expect(statistics.stages["total"]?.count == 3)
    }

    @Test("keys: scheme, host, default port and fragment are normalized; the variant is part of the key")
    func keys() {
        let a = PosterRequest(source: "HTTP://Example.COM:80/v.mp4#t=1").key
        let b = PosterRequest(source: "http://example.com/v.mp4").key
        #expect(a == b)
        #expect(PosterRequest(source: "http://example.com/v.mp4", time: 1).key != b)
        #expect(PosterRequest(source: "http://example.com/v.mp4", width: 10).key != b)
        #expect(PosterRequest(source: "/tmp/../tmp/x.mp4").key == PosterRequest(source: "/tmp/x.mp4").key)
    }
}

@Suite("Posters of broken media")
struct BrokenPosterTests {
    @Test("every broken file that fails to play fails to make a poster, with a typed error naming it, uncached")
    func brokenVideos() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipeline = PosterPipeline()
        var failed = 0
        for broken in BrokenMedia.all {
            guard case .fails(let kinds) = broken.expectation, broken.name != "unreadable.mp4" || getuid() != 0 else {
                continue
            }
            let path = try broken.write(in: directory)
            do {
                _ = try await pipeline.poster(for: PosterRequest(source: path, width: 64))
                Issue.record("\(broken.name) made a poster")
            } catch {
                failed += 1
                #expect(error.url == path, "\(broken.name)")
                #expect(kinds.contains("\(error.kind)") || error.kind == .noDecodableStream, "\(broken.name): \(error)")
            }
        }
        #expect(failed > 5)
        #expect(pipeline.cache.statistics.count == 0)
    }
}
