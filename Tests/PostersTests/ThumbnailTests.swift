import Foundation
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// A storyboard's tiles are ffmpeg's frames scaled as ffmpeg scales them, and its track is WebVTT a web player reads.
@Suite("Thumbnails")
struct ThumbnailTests {
    @Test("keyframe tiles equal ffmpeg's keyframes scaled with scale=W:H:flags=bicubic", arguments: ["a.mp4", "b.mp4"])
    func keyframeTiles(clip: String) async throws {
        let path = MediaFixtures.path(clip)
        let reference = try ThumbnailReference.frames(path, width: 160, height: 90, keyframesOnly: true)
        try #require(reference.count >= 2)
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 160, height: 90))
        let times = try await generator.storyboardTimes(every: 1)
        #expect(times.count == Int((try await generator.duration()).rounded(.up)))
        for time in times {
            let tile = try await generator.thumbnail(at: time)
            #expect(tile.image.width == 160 && tile.image.height == 90 && tile.image.pixelFormat == .yuv420p)
            // A keyframe, the nearest (the index gives decoding times: a tie in presentation time may go either way).
            let nearest = reference.map { abs($0.seconds - time) }.min()!
            let frame = try #require(ThumbnailReference.frame(at: tile.time.seconds, in: reference), "\(tile.time)")
            #expect(abs(frame.seconds - time) <= nearest + 0.1, "\(clip) at \(time): \(tile.time.seconds)")
            #expect(tile.image.md5() == frame.md5, "\(clip) at \(time): keyframe \(frame.seconds)")
            #expect(tile.keyframeOffset != nil)
        }
    }

    @Test("exact tiles equal ffmpeg's frame on screen at each time, scaled the same way")
    func exactTiles() async throws {
        let path = MediaFixtures.path("a.mp4")
        let reference = try ThumbnailReference.frames(path, width: 128, height: 72, keyframesOnly: false)
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 128, height: 72, exact: true))
        for time in [0, 1.5, 2, 3.7, 5.5] {
            let tile = try await generator.thumbnail(at: time)
            let frame = try #require(ThumbnailReference.onScreen(at: time, in: reference))
            #expect(abs(tile.time.seconds - frame.seconds) < 0.001, "at \(time)")
            #expect(tile.image.md5() == frame.md5, "at \(time)")
        }
    }

    @Test("the async sequence gives the storyboard's tiles in order, the same as one by one")
    func sequence() async throws {
        let path = MediaFixtures.path("a.mp4")
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 96, height: 54))
        var tiles: [Thumbnail] = []
        for try await tile in generator.thumbnails(every: 2) { tiles.append(tile) }
        #expect(tiles.map(\.requestedSeconds) == [0, 2, 4])
        let alone = try await ThumbnailGenerator(url: path, options: generator.options).thumbnail(at: 4)
        #expect(tiles.last?.image == alone.image)
    }

    @Test("the storyboard's WebVTT track parses strictly: one cue per tile, end to end, rectangles in the sprite")
    func webVTT() async throws {
        let path = MediaFixtures.path("a.mp4")
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: 160, height: 90))
        var tiles: [Thumbnail] = []
        for try await tile in generator.thumbnails(every: 0.5) { tiles.append(tile) }
        let storyboard = Storyboard(thumbnails: tiles, columns: 5, duration: try await generator.duration())
        let cues = try WebVTTParser.parse(storyboard.webVTT(spriteURL: "sprite.jpg"))
        #expect(cues.count == 12)
        #expect(cues.first?.start == 0 && cues.last?.end == 6)
        for (cue, next) in zip(cues, cues.dropFirst()) { #expect(cue.end == next.start) }
        let sprite = storyboard.sprite()
        #expect(sprite.width == 800 && sprite.height == 270)
        for (index, cue) in cues.enumerated() {
            let (x, y) = (index % 5 * 160, index / 5 * 90)
            #expect(cue.text == "sprite.jpg#xywh=\(x),\(y),160,90")
        }
        // The sprite's tile 7 holds thumbnail 7's RGBA pixels, opaque.
        let tile = tiles[7].rgba
        let row = 45
        let start = ((90 + row) * 800 + 2 * 160) * 4
        let spriteRow = Array(sprite.bytes[start..<start + 160 * 4])
        var tileRow = Array(tile.bytes[row * 640..<(row + 1) * 640])
        for alpha in stride(from: 3, to: tileRow.count, by: 4) { tileRow[alpha] = 255 }
        #expect(spriteRow == tileRow)
    }

    @Test("the strict parser refuses what the WebVTT spec refuses")
    func parserRefuses() {
        for bad in [
            "WEBVT\n\n00:00.000 --> 00:01.000\nx", "WEBVTT\n\n00:00.00 --> 00:01.000\nx",
            "WEBVTT\n\n00:60.000 --> 00:61.000\nx", "WEBVTT\n\n0:00:00.000 --> 00:01.000\nx",
            "WEBVTT\n\n00:00.000-->00:01.000\nx", "WEBVTT\n\n00:02.000 --> 00:01.000\nx",
            "WEBVTT\n\nid only",
        ] {
            #expect(throws: WebVTTParser.Failure.self, "\(bad)") { try WebVTTParser.parse(bad) }
        }
        #expect(throws: Never.self) { try WebVTTParser.parse("WEBVTT\n\n01:00:00.000 --> 01:00:01.500 align:start\nx") }
    }

    @Test("a missing file and a file with no video fail naming them")
    func failures() async throws {
        let missing = ThumbnailGenerator(url: "/nonexistent/clip.mp4", options: ThumbnailOptions(width: 8, height: 8))
        await #expect(throws: MediaError.self) { _ = try await missing.thumbnail(at: 0) }
        let audio = ThumbnailGenerator(
            url: MediaFixtures.path("tone.m4a"), options: ThumbnailOptions(width: 8, height: 8))
        do {
            _ = try await audio.thumbnail(at: 0)
            Issue.record("an audio file gave a thumbnail")
        } catch {
            #expect(error.url.hasSuffix("tone.m4a") && error.kind == .noDecodableStream, "\(error)")
        }
    }
}
