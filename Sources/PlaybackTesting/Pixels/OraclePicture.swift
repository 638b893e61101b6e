import Foundation
import MediaCore

/// A picture of four bytes per pixel (RGBA, BGRA, ARGB), its rows packed one after another: what ffmpeg wrote as
/// `-f rawvideo`, or what the product made, to compare byte for byte or by PSNR.
public struct OraclePicture: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]

    /// A picture of `width`x`height` holding `bytes` (four per pixel, rows packed).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Its size, not its bytes (a failing expectation prints the pictures it compared).
    public var description: String { "\(width)x\(height) picture (\(bytes.count) bytes)" }

    /// Peak signal-to-noise ratio against `other` (of the same size and byte order) over the colour bytes, the
    /// alpha byte of each pixel left out (`alpha` says which of the four it is), in dB; infinity when equal.
    public func psnr(to other: OraclePicture, alpha: Int = 3) -> Double {
        precondition(bytes.count == other.bytes.count, "PSNR of pictures of different sizes")
        var squares = 0.0
        var count = 0
        for index in bytes.indices where index % 4 != alpha {
            let difference = Double(bytes[index]) - Double(other.bytes[index])
            squares += difference * difference
            count += 1
        }
        guard squares > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squares / Double(count)))
    }

    /// How this picture differs from `expected`, in one line for a failing test: the sizes, or the PSNR, the number
    /// of pixels that differ and the first of them.
    public func difference(from expected: OraclePicture) -> String {
        guard width == expected.width, height == expected.height, bytes.count == expected.bytes.count else {
            return "\(width)x\(height) (\(bytes.count) bytes), expected \(expected.width)x\(expected.height) "
                + "(\(expected.bytes.count) bytes)"
        }
        let differing = stride(from: 0, to: bytes.count, by: 4).filter {
            bytes[$0..<$0 + 4] != expected.bytes[$0..<$0 + 4]
        }
        guard let first = differing.first else { return "equal" }
        let (x, y) = (first / 4 % width, first / 4 / width)
        return "PSNR \(psnr(to: expected)) dB, \(differing.count) of \(width * height) pixels differ, the first at "
            + "(\(x), \(y)): \(Array(bytes[first..<first + 4])), expected \(Array(expected.bytes[first..<first + 4]))"
    }
}

extension OraclePicture {
    /// The pixels of `image`, a packed four-byte image (RGBA, BGRA) the product made.
    public init(_ image: VideoImage) {
        precondition(image.bytesPerRow == [image.width * 4], "a packed four-byte image")
        self.init(width: image.width, height: image.height, bytes: image.bytes)
    }
}
