import Foundation

/// A display matrix for a test clip, with the filters ffmpeg's autorotation (fftools 5.1) turns the picture
/// upright with: the oracle for the direction of a turn and of a mirror.
public struct DisplayMatrix: Sendable, CustomStringConvertible {
    /// What it does, as a test names it ("90", "mirrored").
    public let name: String
    /// The track header's matrix: a, b, u, c, d, v, x, y, w (16.16 fixed point, but 2.30 for u, v and w).
    public let entries: [Int32]
    /// The filters that turn an RGBA picture as the matrix says (`transpose=clock`, `hflip`).
    public let filters: String

    public var description: String { name }

    /// Whether the shown picture's width is the coded height.
    public var isQuarterTurn: Bool { filters.hasPrefix("transpose") }

    static let one: Int32 = 0x10000
    static let w: Int32 = 0x4000_0000

    /// Turned a quarter clockwise, half, three quarters, and mirrored left to right.
    public static let rotations = [
        DisplayMatrix(name: "90", entries: [0, one, 0, -one, 0, 0, 0, 0, w], filters: "transpose=clock"),
        DisplayMatrix(name: "180", entries: [-one, 0, 0, 0, -one, 0, 0, 0, w], filters: "hflip,vflip"),
        DisplayMatrix(name: "270", entries: [0, -one, 0, one, 0, 0, 0, 0, w], filters: "transpose=cclock"),
        DisplayMatrix(name: "mirrored", entries: [-one, 0, 0, 0, one, 0, 0, 0, w], filters: "hflip"),
    ]

    /// The other mirrors a matrix can say: upside down, and mirrored across either diagonal.
    public static let otherMirrors = [
        DisplayMatrix(name: "vflip", entries: [one, 0, 0, 0, -one, 0, 0, 0, w], filters: "vflip"),
        DisplayMatrix(name: "transpose", entries: [0, one, 0, one, 0, 0, 0, 0, w], filters: "transpose=cclock_flip"),
        DisplayMatrix(
            name: "antitranspose", entries: [0, -one, 0, -one, 0, 0, 0, 0, w], filters: "transpose=clock_flip"),
    ]

    /// A copy of the MP4 `clip` (a path; its first track header version 0, the video's) in `directory`, named
    /// `name`, whose first track header holds this matrix: its path.
    /// - Throws: `FixtureError` when the clip has no track header; Foundation's error when it cannot be read or
    ///   written.
    public func clip(from clip: String, in directory: URL, name: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        guard let tkhd = bytes.indices.dropLast(4).first(where: { Array(bytes[$0..<$0 + 4]) == Array("tkhd".utf8) })
        else { throw FixtureError("\(clip) has no track header") }
        guard bytes[tkhd + 4] == 0 else { throw FixtureError("\(clip)'s track header is not version 0") }
        // Past the type, version and flags, times, track id, reserved, duration, reserved, layer .. volume (v0).
        var offset = tkhd + 4 + 4 + 4 * 5 + 8 + 8
        for value in entries {
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes[offset] = UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> UInt32(shift))
                offset += 1
            }
        }
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
