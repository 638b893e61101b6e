/// A picture converted to a requested pixel format, its planes packed in one buffer with alignment 1.
public struct VideoImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixelFormat: PixelFormat
    /// All planes, one after another.
    public var bytes: [UInt8]
    /// Byte offset of each plane in `bytes`.
    public var planeOffsets: [Int]
    /// Bytes per row of each plane.
    public var bytesPerRow: [Int]
    /// Presentation time of the frame it came from.
    public var time: MediaTime

    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, bytes: [UInt8], planeOffsets: [Int],
        bytesPerRow: [Int], time: MediaTime
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytes = bytes
        self.planeOffsets = planeOffsets
        self.bytesPerRow = bytesPerRow
        self.time = time
    }

    /// This packed 4-bytes-per-pixel image turned clockwise by `degrees` (0, 90, 180 or 270), as a viewer shows it.
    public func rotated(clockwise degrees: Int) -> VideoImage {
        let turns = ((degrees / 90) % 4 + 4) % 4
        guard turns != 0 else { return self }
        precondition(planeOffsets.count == 1 && bytesPerRow[0] == width * 4, "rotation needs a packed 32-bit format")
        let (w, h) = (width, height)
        let (outW, outH) = turns == 2 ? (w, h) : (h, w)
        var out = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self)
                let d = dst.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    for x in 0..<w {
                        let (nx, ny): (Int, Int)
                        switch turns {
                        case 1: (nx, ny) = (h - 1 - y, x)
                        case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                        default: (nx, ny) = (y, w - 1 - x)
                        }
                        d[ny * outW + nx] = s[y * w + x]
                    }
                }
            }
        }
        return VideoImage(
            width: outW, height: outH, pixelFormat: pixelFormat, bytes: out, planeOffsets: [0],
            bytesPerRow: [outW * 4], time: time)
    }

    /// This packed 4-bytes-per-pixel image mirrored left to right when `mirror` is true (then turned clockwise by
    /// `degrees`): a picture upright as its display matrix says.
    public func oriented(mirrored mirror: Bool, clockwise degrees: Int) -> VideoImage {
        guard mirror else { return rotated(clockwise: degrees) }
        precondition(planeOffsets.count == 1 && bytesPerRow[0] == width * 4, "mirroring needs a packed 32-bit format")
        var out = bytes
        out.withUnsafeMutableBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            for row in 0..<height { pixels[row * width..<(row + 1) * width].reverse() }
        }
        var image = self
        image.bytes = out
        return image.rotated(clockwise: degrees)
    }
}
