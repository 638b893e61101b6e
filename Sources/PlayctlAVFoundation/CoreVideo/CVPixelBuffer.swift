// swift-format-ignore-file: AlwaysUseLowerCamelCase
// CoreVideo's C names, as Apple spells them.

import Foundation

/// A four-character code, as CoreServices' `OSType` (a pixel format type, for one).
public typealias OSType = UInt32
/// CoreVideo's result code.
public typealias CVReturn = Int32

/// The call succeeded.
public let kCVReturnSuccess: CVReturn = 0
/// An argument was not valid (a pixel buffer unlocked more often than it was locked).
public let kCVReturnInvalidArgument: CVReturn = -6661

/// 32-bit pixels, blue, green, red, alpha in memory order (`'BGRA'`).
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 32-bit pixels, alpha, red, green, blue in memory order (`32`).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// The pixel-buffer attribute naming the pixel format (or formats) wanted: an `OSType`, or an array of them.
public let kCVPixelBufferPixelFormatTypeKey = "PixelFormatType"

/// How ``CVPixelBufferLockBaseAddress(_:_:)`` locks a buffer, as `CVPixelBufferLockFlags`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The app only reads the pixels.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// CoreVideo's pixel buffer, as far as `AVPlayerItemVideoOutput` hands one out on Linux: one packed plane of 32-bit
/// pixels (``kCVPixelFormatType_32BGRA`` or ``kCVPixelFormatType_32ARGB``), rows top to bottom, in memory of its
/// own that lives as long as the buffer. Read it with the C-style functions (`CVPixelBufferGetBaseAddress`, ...)
/// as on Apple platforms; locking is counted (the pixels are always in memory).
public final class CVPixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let pixelFormatType: OSType
    /// The first pixel's byte (`bytesPerRow x height` bytes).
    public let baseAddress: UnsafeMutableRawPointer
    private let lockCount = NSLock()
    private var locks = 0

    /// A buffer of `width` x `height` 32-bit pixels copied from `pixels` (`bytesPerRow` a row, at least
    /// `width x 4`). Nil when `pixels` is shorter than the rows need or a side is not positive.
    public init?(width: Int, height: Int, bytesPerRow: Int, pixelFormatType: OSType, pixels: [UInt8]) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * height else { return nil }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixelFormatType = pixelFormatType
        baseAddress = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * height, alignment: 64)
        pixels.withUnsafeBytes { baseAddress.copyMemory(from: $0.baseAddress!, byteCount: bytesPerRow * height) }
    }

    deinit { baseAddress.deallocate() }

    /// The pixels' bytes (`bytesPerRow x height`).
    public var dataSize: Int { bytesPerRow * height }

    fileprivate func lock() {
        lockCount.withLock { locks += 1 }
    }

    fileprivate func unlock() -> CVReturn {
        lockCount.withLock {
            guard locks > 0 else { return kCVReturnInvalidArgument }
            locks -= 1
            return kCVReturnSuccess
        }
    }
}

/// CoreVideo's image buffer: here always a ``CVPixelBuffer``.
public typealias CVImageBuffer = CVPixelBuffer

/// The buffer's width in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }
/// The buffer's height in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }
/// Bytes from one row to the next.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.bytesPerRow }
/// The pixel format (``kCVPixelFormatType_32BGRA`` or ``kCVPixelFormatType_32ARGB``).
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { pixelBuffer.pixelFormatType }
/// The bytes of the pixels (`bytesPerRow x height`).
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.dataSize }
/// False: one packed plane.
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { false }
/// 0: not planar.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int { 0 }
/// The first pixel's byte; call ``CVPixelBufferLockBaseAddress(_:_:)`` first, as on Apple platforms.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.baseAddress
}

/// Locks the pixels for the CPU to read (``CVPixelBufferLockFlags/readOnly``) or write: ``kCVReturnSuccess``.
public func CVPixelBufferLockBaseAddress(
    _ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags
)
    -> CVReturn
{
    pixelBuffer.lock()
    return kCVReturnSuccess
}

/// Ends a lock taken with the same flags: ``kCVReturnSuccess``, or ``kCVReturnInvalidArgument`` when the buffer
/// is not locked.
public func CVPixelBufferUnlockBaseAddress(
    _ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags
)
    -> CVReturn
{
    pixelBuffer.unlock()
}
