import Foundation
import PlaybackTesting
import Testing

/// ffmpeg as the oracle of pixels: what it makes of a clip with a filter chain, what a PNG holds, and how far two
/// pictures are apart.
enum PixelOracle {
    /// A picture as packed RGBA bytes.
    struct Picture: Equatable {
        var width: Int
        var height: Int
        var rgba: [UInt8]
    }

    /// The rotation of a display matrix and the filters ffmpeg turns the picture upright with (fftools' own choice
    /// for that matrix: the oracle for direction).
    struct Orientation: CustomTestStringConvertible, Sendable {
        let name: String
        /// The track header's matrix: a, b, u, c, d, v, x, y, w (16.16, but 2.30 for u, v and w).
        let matrix: [Int32]
        /// The filters that turn an RGBA picture as the matrix says.
        let filters: String
        var testDescription: String { name }
    }

    static let one: Int32 = 0x10000
    static let orientations = [
        Orientation(name: "90", matrix: [0, one, 0, -one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=clock"),
        Orientation(name: "180", matrix: [-one, 0, 0, 0, -one, 0, 0, 0, 0x4000_0000], filters: "hflip,vflip"),
        Orientation(name: "270", matrix: [0, -one, 0, one, 0, 0, 0, 0, 0x4000_0000], filters: "transpose=cclock"),
        Orientation(name: "mirrored", matrix: [-one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000], filters: "hflip"),
    ]

    static func ffmpeg() throws -> String {
        try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is the oracle")
    }

    /// A copy of Media/rotated.mp4 (320x180 coded) in `directory` whose track header holds `matrix`.
    static func clip(with matrix: [Int32], in directory: URL, name: String) throws -> String {
        var bytes = try MediaFixtures.bytes("rotated.mp4")
        let tkhd = try #require(bytes.indices.dropLast(4).first { Array(bytes[$0..<$0 + 4]) == Array("tkhd".utf8) })
        // Past the type, version and flags, times, track id, reserved, duration, reserved, layer .. volume (v0).
        var offset = tkhd + 4 + 4 + 4 * 5 + 8 + 8
        for value in matrix {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes[offset] = UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> UInt32(shift))
                offset += 1
            }
        }
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The first picture ffmpeg outputs for `input` (options `before` it) through `filters`, as RGBA of
    /// `width`x`height` (the filters' output, or converted with `-pix_fmt pixelFormat`).
    static func rgba(
        input: String, before: [String] = [], filters: String, width: Int, height: Int, pixelFormat: String? = nil
    ) async throws -> Picture {
        let output = pixelFormat.map { ["-pix_fmt", $0] } ?? []
        let result = try await ProcessRunner.run(
            try ffmpeg(),
            ["-v", "error"] + before + ["-i", input, "-vf", filters, "-frames:v", "1"] + output
                + ["-f", "rawvideo", "-"],
            standardOutput: .capture, standardError: .capture, timeout: 60)
        try #require(result.succeeded, "ffmpeg \(filters): \(result.errorText)")
        try #require(result.output.count == width * height * 4, "ffmpeg gave \(result.output.count) bytes")
        return Picture(width: width, height: height, rgba: result.output)
    }

    /// The pixels of a PNG file, decoded by ffmpeg.
    static func png(_ path: String) async throws -> Picture {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        try #require(header.count == 24 && Array(header[12..<16]) == Array("IHDR".utf8), "\(path) is a PNG")
        func bigEndian(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (bigEndian(16), bigEndian(20))
        let result = try await ProcessRunner.run(
            try ffmpeg(), ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
            standardOutput: .capture, standardError: .capture, timeout: 60)
        try #require(result.succeeded && result.output.count == width * height * 4, "\(path): \(result.errorText)")
        return Picture(width: width, height: height, rgba: result.output)
    }

    /// Peak signal-to-noise ratio of two pictures of one size over their red, green and blue bytes, in dB
    /// (infinity when equal).
    static func psnr(_ a: Picture, _ b: Picture) -> Double {
        precondition(a.rgba.count == b.rgba.count)
        var squares = 0.0
        var count = 0
        for index in a.rgba.indices where index % 4 != 3 {
            let difference = Double(a.rgba[index]) - Double(b.rgba[index])
            squares += difference * difference
            count += 1
        }
        guard squares > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squares / Double(count)))
    }

    /// Expects `actual` to be `expected` byte for byte; says how far apart (PSNR) and what differs when not.
    static func expectEqual(
        _ actual: Picture, _ expected: Picture, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual.width == expected.width, actual.height == expected.height else {
            Issue.record(
                "\(what): \(actual.width)x\(actual.height), ffmpeg's is \(expected.width)x\(expected.height)",
                sourceLocation: sourceLocation)
            return
        }
        #expect(
            actual.rgba == expected.rgba,
            "\(what): pixels differ from ffmpeg's (PSNR \(psnr(actual, expected)) dB)", sourceLocation: sourceLocation)
    }
}
