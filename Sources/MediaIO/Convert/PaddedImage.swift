import CFFmpeg

/// A scratch picture for libswscale to write into: every row padded to 64 bytes and 64 more bytes after the last.
/// libswscale's SIMD code writes whole blocks of pixels, past a row's end when the width is not a multiple of the
/// block (an RGBA row 90 pixels wide got up to 24 bytes more): into a buffer of exactly width x height pixels
/// (rows packed with alignment 1) the last row's overrun corrupted the heap, and a luma row's could overwrite the
/// chroma plane after it. The scratch is written, then copied out row by row (the width's bytes only).
struct PaddedImage {
    static let alignment: Int32 = 64

    let format: AVPixelFormat
    let width: Int32
    let height: Int32
    private var bytes: [UInt8]
    private var offsets: [Int] = []
    private(set) var strides = [Int32](repeating: 0, count: 4)

    /// A scratch picture of `format` at `width`x`height`; nil when FFmpeg cannot lay one out.
    init?(format: AVPixelFormat, width: Int32, height: Int32) {
        let size = av_image_get_buffer_size(format, width, height, Self.alignment)
        guard size > 0 else { return nil }
        self.format = format
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: Int(size) + Int(Self.alignment) * 2)
        var planes = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        let filled = bytes.withUnsafeMutableBufferPointer { buffer in
            av_image_fill_arrays(&planes, &strides, buffer.baseAddress, format, width, height, Self.alignment)
        }
        guard filled > 0 else { return nil }
        let base = planes[0]
        offsets = planes.map { plane in plane.flatMap { p in base.map { p - $0 } } ?? -1 }
    }

    /// Calls `body` with the planes and strides to write into.
    mutating func withPlanes<T>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>) -> T
    ) -> T {
        let offsets = offsets
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var planes = offsets.map { $0 >= 0 ? buffer.baseAddress! + $0 : nil }
            return strides.withUnsafeMutableBufferPointer { strides in
                planes.withUnsafeMutableBufferPointer { body($0.baseAddress!, strides.baseAddress!) }
            }
        }
    }

    /// The picture packed with alignment 1 (as `av_image_copy_to_buffer` packs it).
    func packed() -> [UInt8] {
        let size = Int(av_image_get_buffer_size(format, width, height, 1))
        var out = [UInt8](repeating: 0, count: max(size, 0))
        copy { planes, strides in
            out.withUnsafeMutableBufferPointer { buffer in
                _ = av_image_copy_to_buffer(
                    buffer.baseAddress, Int32(buffer.count), UnsafePointer(planes), strides, format, width, height, 1)
            }
        }
        return out
    }

    /// Copies the picture into `planes` with `strides` (the width's bytes of each row).
    func copy(into planes: [UnsafeMutablePointer<UInt8>?], strides destination: [Int32]) {
        var planes = planes + [UnsafeMutablePointer<UInt8>?](repeating: nil, count: max(0, 4 - planes.count))
        var destination = destination + [Int32](repeating: 0, count: max(0, 4 - destination.count))
        copy { source, strides in
            av_image_copy(&planes, &destination, source, strides, format, width, height)
        }
    }

    /// Calls `body` with the scratch's planes and strides, for reading.
    private func copy(
        _ body: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> Void
    ) {
        bytes.withUnsafeBufferPointer { buffer in
            var planes: [UnsafePointer<UInt8>?] = offsets.map { $0 >= 0 ? buffer.baseAddress! + $0 : nil }
            planes.withUnsafeMutableBufferPointer { planes in
                strides.withUnsafeBufferPointer { body(planes.baseAddress!, $0.baseAddress!) }
            }
        }
    }
}
