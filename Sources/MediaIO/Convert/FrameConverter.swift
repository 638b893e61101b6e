import CFFmpeg

/// Converts decoded frames to another pixel format and size with libswscale. Keeps one cached `SwsContext`,
/// freed in `deinit`. Used by one thread at a time.
public final class FrameConverter {
    private var context: OpaquePointer?

    public init() {}

    deinit { sws_freeContext(context) }

    /// `frame` in `format` at `width`x`height` (the frame's own size when nil), planes packed with alignment 1.
    /// Converting to the frame's own format and size copies the planes without scaling.
    public func convert(
        _ frame: VideoFrame, to format: PixelFormat, width: Int? = nil, height: Int? = nil
    )
        throws(MediaError) -> VideoImage
    {
        let outW = Int32(width ?? frame.width)
        let outH = Int32(height ?? frame.height)
        if format == frame.pixelFormat && Int(outW) == frame.width && Int(outH) == frame.height {
            return Self.layout(bytes: frame.packedBytes(), format: format, width: outW, height: outH, time: frame.time)
        }
        let target = try Self.avFormat(format)
        let size = Int(av_image_get_buffer_size(target, outW, outH, 1))
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var dstData = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var dstLines = [Int32](repeating: 0, count: 4)
        try bytes.withUnsafeMutableBufferPointer { out throws(MediaError) in
            av_image_fill_arrays(&dstData, &dstLines, out.baseAddress, target, outW, outH, 1)
            try scale(frame, to: format, width: Int(outW), height: Int(outH), planes: dstData, strides: dstLines)
        }
        return Self.layout(bytes: bytes, format: format, width: outW, height: outH, time: frame.time)
    }

    /// Scales and converts `frame` into memory of the caller's: `planes` (one pointer per plane of `format`) with
    /// `strides` bytes from one row to the next, at `width`x`height`. The caller checks that the planes hold that
    /// many rows of at least the format's row size.
    public func scale(
        _ frame: VideoFrame, to format: PixelFormat, width: Int, height: Int,
        planes: [UnsafeMutablePointer<UInt8>?], strides: [Int32]
    ) throws(MediaError) {
        let target = try Self.avFormat(format)
        context = sws_getCachedContext(
            context, Int32(frame.width), Int32(frame.height), frame.pixelFormat.avFormat, Int32(width),
            Int32(height), target, SWS_BICUBIC, nil, nil, nil)
        guard let context else {
            throw MediaError(
                .invalidArgument, url: "", operation: .convert,
                reason: "libswscale cannot convert \(frame.pixelFormat) to \(format)")
        }
        var dstData = planes + [UnsafeMutablePointer<UInt8>?](repeating: nil, count: max(0, 4 - planes.count))
        var dstLines = strides + [Int32](repeating: 0, count: max(0, 4 - strides.count))
        let result = Self.withPlanes(of: frame) { data, lines in
            sws_scale(context, data, lines, 0, Int32(frame.height), &dstData, &dstLines)
        }
        guard result > 0 else {
            throw MediaError(.invalidArgument, url: "", operation: .convert, ffmpegCode: result)
        }
    }

    /// FFmpeg's format for `format`.
    private static func avFormat(_ format: PixelFormat) throws(MediaError) -> AVPixelFormat {
        let target = format.avFormat
        guard target != AV_PIX_FMT_NONE else {
            throw MediaError(
                .invalidArgument, url: "", operation: .convert,
                reason: "FFmpeg knows no pixel format named '\(format)'")
        }
        return target
    }

    /// The frame's planes as libswscale takes them: a decoded `AVFrame`'s own, or (for a picture made elsewhere)
    /// its packed bytes laid out with `av_image_fill_arrays`.
    private static func withPlanes<T>(
        of frame: VideoFrame,
        _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> T
    ) -> T {
        if let decoded = frame.picture as? DecodedPicture { return decoded.withPlanes(body) }
        var packed = frame.packedBytes()
        var data = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var lines = [Int32](repeating: 0, count: 4)
        return packed.withUnsafeMutableBufferPointer { buffer in
            av_image_fill_arrays(
                &data, &lines, buffer.baseAddress, frame.pixelFormat.avFormat, Int32(frame.width),
                Int32(frame.height), 1)
            return data.withUnsafeBufferPointer { planes in
                planes.baseAddress!.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 4) { body($0, lines) }
            }
        }
    }

    private static func layout(
        bytes: [UInt8], format: PixelFormat, width: Int32, height: Int32, time: MediaTime
    )
        -> VideoImage
    {
        var data = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var lines = [Int32](repeating: 0, count: 4)
        let base = UnsafeMutablePointer<UInt8>(bitPattern: 0x1000)!
        av_image_fill_arrays(&data, &lines, base, format.avFormat, width, height, 1)
        var offsets: [Int] = []
        var strides: [Int] = []
        for plane in 0..<4 where data[plane] != nil && lines[plane] > 0 {
            offsets.append(data[plane]! - base)
            strides.append(Int(lines[plane]))
        }
        return VideoImage(
            width: Int(width), height: Int(height), pixelFormat: format, bytes: bytes,
            planeOffsets: offsets, bytesPerRow: strides, time: time)
    }
}
