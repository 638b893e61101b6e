import Foundation
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// The pixels of posters and thumbnails made through the Posters API, against ffmpeg's for the same operation:
/// `scale=W:H:flags=bicubic` to RGBA or BGRA in one libswscale call (as `FrameConverter` makes it), the display
/// matrix's turn after it, a fill's centre cropped by ffmpeg's `crop` (centred by default). Byte for byte.
@Suite("Posters and thumbnails against ffmpeg's pixels")
struct PosterPixelTests {
    static func poster(_ request: PosterRequest) async throws -> OraclePicture {
        OraclePicture(try await PosterPipeline().poster(for: request).image)
    }

    @Test("a scaled poster in RGBA and in BGRA is ffmpeg's scale with -pix_fmt rgba and bgra")
    func formats() async throws {
        let path = MediaFixtures.path("a.mp4")
        for format in PosterRequest.Format.allCases {
            let poster = try await Self.poster(PosterRequest(source: path, width: 64, format: format))
            let expected = try await PixelOracle.picture(
                of: path, inputOptions: ["-noautorotate"], filters: "scale=64:36:flags=bicubic",
                pixelFormat: format.rawValue, width: 64, height: 36)
            #expect(poster == expected, "\(format): \(poster.difference(from: expected))")
        }
    }

    @Test("a fill poster is ffmpeg's scale to cover the size, cropped at the centre")
    func fill() async throws {
        let path = MediaFixtures.path("a.mp4")  // 640x360: 178x100 covers 100x100
        let poster = try await Self.poster(PosterRequest(source: path, width: 100, height: 100, fit: .fill))
        let expected = try await PixelOracle.picture(
            of: path, inputOptions: ["-noautorotate"], filters: "scale=178:100:flags=bicubic,format=rgba,crop=100:100",
            width: 100, height: 100)
        #expect(poster == expected, "\(poster.difference(from: expected))")
    }

    /// Copies of Media/rotated.mp4 (320x180 coded) with each display matrix, as BGRA fill posters at 100x100: scaled
    /// as coded to 178x100, turned (or mirrored) as ffmpeg's autorotation turns, the centre cropped.
    @Test(
        "a turned clip's fill poster in BGRA is scaled, turned as ffmpeg turns, then cropped",
        arguments: DisplayMatrix.rotations)
    func turned(_ matrix: DisplayMatrix) async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try matrix.clip(from: MediaFixtures.path("rotated.mp4"), in: directory, name: "\(matrix).mp4")
        let poster = try await Self.poster(
            PosterRequest(source: clip, width: 100, height: 100, fit: .fill, format: .bgra))
        let expected = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"],
            filters: "scale=178:100:flags=bicubic,format=bgra,\(matrix.filters),crop=100:100", pixelFormat: "bgra",
            width: 100, height: 100)
        #expect(poster == expected, "\(matrix): \(poster.difference(from: expected))")
    }

    /// A thumbnail's RGBA copy: its YUV tile (ffmpeg's `scale=W:H:flags=bicubic` to yuv420p, `ThumbnailTests`)
    /// converted at its size, as ffmpeg converts that tile with `-pix_fmt rgba`; the coded picture, not turned
    /// (docs/thumbnails.md).
    @Test(
        "a thumbnail's RGBA is ffmpeg's scaled yuv420p tile converted with -pix_fmt rgba",
        arguments: [("a.mp4", 90, 50), ("rotated.mp4", 64, 36), ("c.webm", 75, 57)])
    func thumbnailRGBA(clip: String, width: Int, height: Int) async throws {
        let path = MediaFixtures.path(clip)
        let generator = ThumbnailGenerator(url: path, options: ThumbnailOptions(width: width, height: height))
        defer { generator.close() }
        let tile = OraclePicture(try await generator.thumbnail(at: 0).rgba)
        let expected = try await PixelOracle.picture(
            of: path, inputOptions: ["-skip_frame", "nokey", "-noautorotate"],
            filters: "scale=\(width):\(height):flags=bicubic,format=yuv420p", width: width, height: height)
        #expect(tile == expected, "\(clip): \(tile.difference(from: expected))")
    }

    /// A stream tagged BT.709 (Media/a.mp4 re-muxed with `h264_metadata`): the poster is converted with the tagged
    /// matrix, as ffmpeg's scale filter converts it, and so is the thumbnail's RGBA copy (of the packed tile, with the
    /// stream's tags: converted as BT.601 it was 24.9 dB PSNR from ffmpeg's).
    @Test("a poster and a thumbnail of a stream tagged BT.709 are ffmpeg's")
    func taggedColours() async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PixelOracle.remux(
            MediaFixtures.path("a.mp4"), options: ["-c", "copy", "-bsf:v", "h264_metadata=matrix_coefficients=1"],
            in: directory, name: "bt709.mp4")
        let poster = try await Self.poster(PosterRequest(source: clip, width: 64))
        let expectedPoster = try await PixelOracle.picture(
            of: clip, filters: "scale=64:36:flags=bicubic", width: 64, height: 36)
        #expect(poster == expectedPoster, "poster: \(poster.difference(from: expectedPoster))")
        let generator = ThumbnailGenerator(url: clip, options: ThumbnailOptions(width: 90, height: 50))
        defer { generator.close() }
        let tile = OraclePicture(try await generator.thumbnail(at: 0).rgba)
        let expectedTile = try await PixelOracle.picture(
            of: clip, inputOptions: ["-skip_frame", "nokey"], filters: "scale=90:50:flags=bicubic,format=yuv420p",
            width: 90, height: 50)
        #expect(tile == expectedTile, "thumbnail: \(tile.difference(from: expectedTile))")
    }
}
