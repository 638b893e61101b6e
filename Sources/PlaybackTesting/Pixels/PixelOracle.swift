import Foundation

/// ffmpeg as the oracle of pixels: the picture it makes of a clip's frame through a filter chain (its own
/// autorotation, `scale=W:H:flags=...`, `transpose`, `-pix_fmt rgba`), what a PNG holds, and clips made for a
/// test (a display matrix written into a copy, a stream re-muxed with other tags).
public enum PixelOracle {
    /// The ffmpeg executable on the path.
    /// - Throws: `FixtureError` when there is none.
    public static func ffmpeg() throws -> String {
        guard let path = ProcessRunner.findExecutable("ffmpeg") else {
            throw FixtureError("ffmpeg is the oracle of pixels and is not on the PATH")
        }
        return path
    }

    /// The first picture ffmpeg outputs for `input` (with `inputOptions` before it, such as `-noautorotate`)
    /// through `filters`, converted with `-pix_fmt pixelFormat` (a four-byte format) and expected to be
    /// `width`x`height`.
    /// - Throws: `FixtureError` when ffmpeg fails or gives another size.
    public static func picture(
        of input: String, inputOptions: [String] = [], filters: String? = nil, pixelFormat: String = "rgba",
        width: Int, height: Int
    ) async throws -> OraclePicture {
        let output = try await raw(
            of: input, inputOptions: inputOptions, filters: filters, pixelFormat: pixelFormat)
        guard output.count == width * height * 4 else {
            throw FixtureError(
                "ffmpeg gave \(output.count) bytes of \(input) through \(filters ?? "no filter"), not \(width)x\(height)"
            )
        }
        return OraclePicture(width: width, height: height, bytes: output)
    }

    /// The bytes of the first picture ffmpeg outputs for `input` through `filters` in `pixelFormat` (any format:
    /// its planes packed one after another, as `-f rawvideo` writes them).
    /// - Throws: `FixtureError` when ffmpeg fails.
    public static func raw(
        of input: String, inputOptions: [String] = [], filters: String? = nil, pixelFormat: String
    ) async throws -> [UInt8] {
        let chain = filters.map { ["-vf", $0] } ?? []
        return try await run(
            inputOptions + ["-i", input] + chain + ["-frames:v", "1", "-pix_fmt", pixelFormat, "-f", "rawvideo", "-"])
    }

    /// The pixels of the PNG file at `path`, decoded by ffmpeg to `pixelFormat` (its size read from its header).
    /// - Throws: `FixtureError` when the file is not a PNG or ffmpeg cannot decode it.
    public static func png(_ path: String, pixelFormat: String = "rgba") async throws -> OraclePicture {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        guard header.count == 24, Array(header[12..<16]) == Array("IHDR".utf8) else {
            throw FixtureError("\(path) is not a PNG")
        }
        func bigEndian(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return try await picture(of: path, pixelFormat: pixelFormat, width: bigEndian(16), height: bigEndian(20))
    }

    /// Runs ffmpeg (errors only) with `arguments`; what it wrote to standard output.
    /// - Throws: `FixtureError` with ffmpeg's message when it fails.
    @discardableResult
    public static func run(_ arguments: [String]) async throws -> [UInt8] {
        let result = try await ProcessRunner.run(
            try ffmpeg(), ["-nostdin", "-v", "error"] + arguments, standardOutput: .capture, standardError: .capture,
            timeout: 60)
        guard result.succeeded else {
            throw FixtureError("ffmpeg \(arguments.joined(separator: " ")): \(result.errorText)")
        }
        return result.output
    }

    /// `clip` re-muxed by ffmpeg into `directory` as `name` with `options` between input and output (`-c copy`
    /// and a bitstream filter that tags the colours, say): its path.
    /// - Throws: `FixtureError` when ffmpeg fails.
    public static func remux(
        _ clip: String, options: [String], in directory: URL, name: String
    ) async throws
        -> String
    {
        let path = directory.appendingPathComponent(name).path
        try await run(["-y", "-i", clip] + options + [path])
        return path
    }
}
