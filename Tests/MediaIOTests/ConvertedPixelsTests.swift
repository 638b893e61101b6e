import Foundation
import MediaIO
import PlaybackTesting
import Testing

/// Frames converted (`FrameConverter`), turned and mirrored (`VideoImage.oriented`) and scaled (`FilterScaler`) by
/// MediaIO, against ffmpeg's output for the same operation on the same frame: its autorotation, `-pix_fmt rgba` and
/// `bgra`, `scale=W:H:flags=...`. Byte for byte: both take the same libswscale path (one call from the decoded
/// picture to the packed format at the size; a turn or a mirror moves whole pixels and commutes with the conversion,
/// which ffmpeg's autorotation applies before it).
@Suite("MediaIO's pixels against ffmpeg: conversion, turns, mirrors, scaling")
struct ConvertedPixelsTests {
    /// The frame compared: the 11th decoded (presentation order, as ffmpeg's `select` counts).
    static let index = 10

    /// Frame `index` of `path`, decoded by MediaIO.
    static func frame(_ path: String) throws -> VideoFrame {
        let reader = try VideoFrameReader(url: path)
        for _ in 0..<index { _ = try #require(try reader.nextFrame(), "\(path) has \(index + 1) frames") }
        return try #require(try reader.nextFrame(), "\(path) has \(index + 1) frames")
    }

    /// The frame as a viewer shows it, in `format`: converted, then turned and mirrored as its display matrix says.
    static func shown(_ frame: VideoFrame, in format: PixelFormat) throws -> OraclePicture {
        OraclePicture(
            try FrameConverter().convert(frame, to: format).oriented(
                mirrored: frame.mirrored, clockwise: frame.rotation))
    }

    /// ffmpeg's frame `index` of `path`, autorotated, converted with `-pix_fmt format`.
    static func ffmpegShown(_ path: String, format: String, width: Int, height: Int) async throws -> OraclePicture {
        try await PixelOracle.picture(
            of: path, filters: "select=eq(n\\,\(index))", pixelFormat: format, width: width, height: height)
    }

    @Test(
        "each committed clip's frame in RGBA and BGRA is ffmpeg's -pix_fmt rgba and bgra, rotated.mp4 turned",
        arguments: MediaFixtures.videoClips)
    func converted(clip: String) async throws {
        let path = MediaFixtures.path(clip)
        let frame = try Self.frame(path)
        for format in ["rgba", "bgra"] {
            let ours = try Self.shown(frame, in: PixelFormat(name: format))
            let expected = try await Self.ffmpegShown(path, format: format, width: ours.width, height: ours.height)
            #expect(ours == expected, "\(clip) in \(format): \(ours.difference(from: expected))")
        }
        if clip == "rotated.mp4" { #expect(frame.rotation == 90 && frame.height == 180, "a quarter turn, coded wide") }
    }

    /// One test per display matrix, on copies of Media/rotated.mp4 (320x180) with the matrix written in: turned
    /// 90, 180, 270, mirrored, and the other three mirrors a matrix can say.
    @Test(
        "a frame turned by its display matrix is ffmpeg's autorotation, RGBA and BGRA",
        arguments: DisplayMatrix.rotations + DisplayMatrix.otherMirrors)
    func turned(_ matrix: DisplayMatrix) async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try matrix.clip(from: MediaFixtures.path("rotated.mp4"), in: directory, name: "\(matrix).mp4")
        let frame = try Self.frame(clip)
        let (width, height) = matrix.isQuarterTurn ? (180, 320) : (320, 180)
        // The oracle checked against itself: ffmpeg's reading of the matrix is the filters named for it.
        let autorotated = try await Self.ffmpegShown(clip, format: "rgba", width: width, height: height)
        let explicit = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"],
            filters: "select=eq(n\\,\(Self.index)),format=rgba,\(matrix.filters)",
            width: width, height: height)
        try #require(autorotated == explicit, "ffmpeg's autorotation of \(matrix) is \(matrix.filters)")
        let coded = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"], filters: "select=eq(n\\,\(Self.index))", width: 320, height: 180)
        #expect(coded != autorotated, "the \(matrix) turn changes the picture")

        let ours = try Self.shown(frame, in: .rgba)
        #expect(ours == autorotated, "\(matrix) in RGBA: \(ours.difference(from: autorotated))")
        let bgra = try Self.shown(frame, in: .bgra)
        let expected = try await Self.ffmpegShown(clip, format: "bgra", width: width, height: height)
        #expect(bgra == expected, "\(matrix) in BGRA: \(bgra.difference(from: expected))")
    }

    /// Streams whose colours are tagged (Media/rotated.mp4 re-muxed with `h264_metadata`): ffmpeg converts with the
    /// tagged matrix (BT.709, BT.2020) and range, as its `scale` filter reads them off the frame.
    @Test(
        "a frame of a stream tagged BT.709, BT.2020 or full range converts and scales as ffmpeg does",
        arguments: [
            ("bt709", "matrix_coefficients=1:colour_primaries=1:transfer_characteristics=1"),
            ("bt2020", "matrix_coefficients=9:colour_primaries=9:transfer_characteristics=14"),
            ("bt709-full", "matrix_coefficients=1:video_full_range_flag=1"),
        ])
    func taggedColours(name: String, tags: String) async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PixelOracle.remux(
            MediaFixtures.path("rotated.mp4"), options: ["-c", "copy", "-bsf:v", "h264_metadata=\(tags)"],
            in: directory, name: "\(name).mp4")
        let frame = try Self.frame(clip)
        for format in ["rgba", "bgra"] {
            let ours = try Self.shown(frame, in: PixelFormat(name: format))
            let expected = try await Self.ffmpegShown(clip, format: format, width: 180, height: 320)
            #expect(ours == expected, "\(name) in \(format): \(ours.difference(from: expected))")
        }
        // Scaled by FilterScaler to RGBA, as ffmpeg's scale filter with the frame's tags.
        let scaled = try FilterScaler(width: 90, height: 160, format: .rgba).scale(frame)
        let ours = OraclePicture(scaled)
        let expected = try await PixelOracle.picture(
            of: clip, inputOptions: ["-noautorotate"],
            filters: "select=eq(n\\,\(Self.index)),scale=90:160:flags=bicubic", width: 90, height: 160)
        #expect(ours == expected, "\(name) scaled: \(ours.difference(from: expected))")
        // The tags matter: the untagged clip's frame is another picture.
        let untagged = try await Self.ffmpegShown(
            MediaFixtures.path("rotated.mp4"), format: "rgba", width: 180, height: 320)
        #expect(try Self.shown(frame, in: .rgba) != untagged, "\(name) converts unlike the untagged stream")
    }

    /// Each of libswscale's algorithms, to RGBA and to YUV 4:2:0 at a size of odd width and height (chroma rounded
    /// up), against ffmpeg's `scale=W:H:flags=<name>`; a.mp4 (640x360) and c.webm (320x240, planar RGB).
    @Test(
        "FilterScaler with each algorithm is ffmpeg's scale with those flags",
        arguments: FilterScaler.Algorithm.allCases)
    func scaled(_ algorithm: FilterScaler.Algorithm) async throws {
        for (clip, width, height) in [("a.mp4", 201, 113), ("c.webm", 121, 91)] {
            let path = MediaFixtures.path(clip)
            let frame = try Self.frame(path)
            let filters = "select=eq(n\\,\(Self.index)),scale=\(width):\(height):flags=\(algorithm.rawValue)"
            for format in ["rgba", "yuv420p"] {
                let scaler = FilterScaler(
                    width: width, height: height, format: PixelFormat(name: format), algorithm: algorithm)
                let ours = try scaler.scale(frame).bytes
                let expected = try await PixelOracle.raw(
                    of: path, inputOptions: ["-noautorotate"], filters: filters, pixelFormat: format)
                #expect(ours.count == expected.count, "\(clip) \(algorithm) \(format): \(ours.count) bytes")
                guard ours.count == expected.count, ours != expected else { continue }
                let differing = zip(ours, expected).filter { $0 != $1 }.count
                Issue.record("\(clip) \(algorithm) to \(format): \(differing) of \(ours.count) bytes differ")
            }
        }
    }
}
