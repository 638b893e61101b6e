import Foundation
import PlaybackTesting
import Testing

/// The pixels `playctl frame -o` and `playctl poster` write, against ffmpeg's for the same operation: turned as a
/// display matrix says (ffmpeg's autorotation, and the explicit `transpose`/`hflip`/`vflip`), scaled with the same
/// swscale flags (`-vf scale=W:H:flags=bicubic`), converted to RGBA (`-pix_fmt rgba`). Bit-exact where the same
/// swscale path is taken; where it is not (a JPEG decoded at half size against ffmpeg's whole decode), by a stated
/// PSNR floor. The PNGs are decoded by ffmpeg (`PixelOracle.png`).
@Suite("Pixels against ffmpeg: rotation, scaling, RGBA")
struct PixelOracleTests {
    /// Frame 30 of the 30 fps clips: the one on screen at 1 s.
    static let frameOne = "select=eq(n\\,30)"

    /// Runs `playctl` with `arguments` and `-o` a PNG in `directory`; the PNG's pixels.
    static func playctlPNG(_ arguments: [String], in directory: URL) async throws -> OraclePicture {
        let png = directory.appendingPathComponent("\(UUID().uuidString).png").path
        let result = try await CLIProcess.run(arguments + ["-o", png])
        try #require(result.status == 0, "playctl \(arguments): \(result.standardError)")
        return try await PixelOracle.png(png)
    }

    /// Expects `actual` to be `expected` byte for byte; says how far apart when not.
    static func expectEqual(
        _ actual: OraclePicture, _ expected: OraclePicture, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual == expected, "\(what): \(actual.difference(from: expected))", sourceLocation: sourceLocation)
    }

    @Test(
        "a frame of a clip turned by its display matrix equals ffmpeg's, one test per matrix",
        arguments: DisplayMatrix.rotations)
    func rotatedFrame(_ matrix: DisplayMatrix) async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try matrix.clip(from: MediaFixtures.path("rotated.mp4"), in: directory, name: "\(matrix).mp4")
        let frame = try await Self.playctlPNG(["frame", clip, "--at", "1"], in: directory)
        let (width, height) = matrix.isQuarterTurn ? (180, 320) : (320, 180)
        // The oracle twice: ffmpeg's own reading of the matrix (autorotation), and the filters named for it after the
        // same conversion to RGBA; they agree, or the oracle is wrong.
        let autorotated = try await PixelOracle.picture(
            of: clip, filters: Self.frameOne, width: width, height: height)
        let explicit = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"], filters: "\(Self.frameOne),format=rgba,\(matrix.filters)",
            width: width, height: height)
        try #require(autorotated == explicit, "ffmpeg's autorotation is \(matrix.filters)")
        Self.expectEqual(frame, explicit, "frame at 1 s of the \(matrix) clip")
        // And the turn is not a no-op: the upright picture differs from the coded one read the same way.
        let coded = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"], filters: Self.frameOne, width: 320, height: 180)
        #expect(coded.bytes != frame.bytes)

        // Its poster at half size: scaled as coded (bicubic, to RGBA in one call), then turned the same way.
        let half = matrix.isQuarterTurn ? "90x160" : "160x90"
        let poster = try await Self.playctlPNG(["poster", clip, "--size", half], in: directory)
        let expected = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"],
            filters: "scale=160:90:flags=bicubic,format=rgba,\(matrix.filters)", width: width / 2,
            height: height / 2)
        Self.expectEqual(poster, expected, "\(matrix) poster at \(half)")
    }

    @Test("a frame as PNG is ffmpeg's -pix_fmt rgba of the same frame, byte for byte")
    func rgbaConversion() async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let frame = try await Self.playctlPNG(["frame", MediaFixtures.path("a.mp4"), "--at", "1"], in: directory)
        let expected = try await PixelOracle.picture(
            of: MediaFixtures.path("a.mp4"), inputOptions: ["-noautorotate"], filters: Self.frameOne, width: 640,
            height: 360)
        Self.expectEqual(frame, expected, "a.mp4 at 1 s")
    }

    /// Posters scaled (and turned): ffmpeg's `scale=W:H:flags=bicubic` to RGBA in one swscale call, as playctl does.
    @Test(
        "a scaled poster is ffmpeg's scale with the same flags, byte for byte",
        arguments: [
            ("a.mp4", "320x180", 320, 180, ""), ("a.mp4", "200x150", 200, 113, ""),
            ("rotated.mp4", "90x160", 90, 160, ",transpose=clock"),
        ])
    func scaledPoster(clip: String, size: String, width: Int, height: Int, turn: String) async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let poster = try await Self.playctlPNG(["poster", MediaFixtures.path(clip), "--size", size], in: directory)
        let (codedWidth, codedHeight) = turn.isEmpty ? (width, height) : (height, width)
        let expected = try await PixelOracle.picture(
            of: MediaFixtures.path(clip), inputOptions: ["-noautorotate"],
            filters: "scale=\(codedWidth):\(codedHeight):flags=bicubic,format=rgba\(turn)", width: width,
            height: height)
        Self.expectEqual(poster, expected, "\(clip) poster at \(size)")
    }

    /// A JPEG poster at half its size or less is decoded at half size (libavcodec's lowres): the same path as
    /// ffmpeg's `-lowres 1` (bit-exact), and within 26 dB of ffmpeg's whole decode scaled down (measured 28.8 dB on
    /// Media/still.jpg, a test pattern of hard edges, where the half-size decode differs most).
    @Test("a JPEG poster decoded at half size: ffmpeg's -lowres 1 exactly, its whole decode above 26 dB PSNR")
    func reducedJPEGPoster() async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let poster = try await Self.playctlPNG(
            ["poster", MediaFixtures.path("still.jpg"), "--size", "160x120"], in: directory)
        let still = MediaFixtures.path("still.jpg")
        let scale = "scale=160:120:flags=bicubic,format=rgba"
        let lowres = try await PixelOracle.picture(
            of: still, inputOptions: ["-lowres", "1"], filters: scale, width: 160, height: 120)
        Self.expectEqual(poster, lowres, "still.jpg poster against ffmpeg -lowres 1")
        let whole = try await PixelOracle.picture(of: still, filters: scale, width: 160, height: 120)
        let psnr = poster.psnr(to: whole)
        #expect(psnr >= 26, "PSNR \(psnr) dB against the whole decode scaled")
        #expect(psnr.isFinite, "a half-size decode is not the whole one: the comparison would prove nothing")
    }
}
