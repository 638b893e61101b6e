import Foundation
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// Tiles of widths that are not a multiple of libswscale's SIMD blocks: it writes past a row's end there, which
/// corrupted the heap (RGBA 90 pixels wide: `malloc(): unaligned tcache chunk detected`) until the conversions wrote
/// into padded scratch pictures (MediaIO's `PaddedImage`). Each tile's YUV equals ffmpeg's scale of the keyframe,
/// so no plane was overwritten by the one before it either.
@Suite("Thumbnails of every width")
struct ThumbnailWidthTests {
    @Test(
        "tiles 2 to 130 pixels wide equal ffmpeg's scale, and convert to RGBA",
        arguments: [
            2, 6, 10, 18, 26, 42, 58, 74, 90, 106, 130,
        ])
    func width(_ width: Int) async throws {
        let path = MediaFixtures.path("a.mp4")
        let reference = try ThumbnailReference.frames(path, width: width, height: 50, keyframesOnly: true)
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: width, height: 50))
        for _ in 0..<3 {
            let tile = try await generator.thumbnail(at: 0)
            #expect(tile.image.md5() == reference.first?.md5, "\(width)x50")
            #expect(tile.rgba.width == width && tile.rgba.bytes.count == width * 50 * 4)
        }
    }
}
