import CFFmpeg

/// Converts decoded frames to another pixel format and size with libswscale. Keeps one cached `SwsContext`,
/// freed in `deinit`. Used by one thread at a time.
public final class FrameConverter {
    private var context: OpaquePointer?

    public init() {}

    deinit { sws_freeContext(context) }

    /// `frame` in `format` at `width`x`height` (the frame's own size when nil), planes packed with alignment 1.
    /// Converting to the frame's own format and size copies the planes without scaling.
    public func convert(_ frame: VideoFrame, to format: PixelFormat, width: Int? = nil, height: Int? = nil)
        throws(MediaError) -> VideoImage
    {
        let outW = Int32(width ?? frame.width), outH = Int32(height ?? frame.height)
        let src = frame.pointer
        if format == frame.pixelFormat && Int(outW) == frame.width && Int(outH) == frame.height {
            return Self.layout(bytes: frame.packedBytes(), format: format, width: outW, height: outH, time: frame.time)
        }
        context = sws_getCachedContext(context, src.pointee.width, src.pointee.height,
                                       AVPixelFormat(rawValue: src.pointee.format), outW, outH, format.raw,
                                       SWS_BICUBIC, nil, nil, nil)
        guard let context else {
            throw MediaError(.invalidArgument, url: "", operation: .convert,
                             reason: "libswscale cannot convert \(frame.pixelFormat) to \(format)")
        }
        let size = Int(av_image_get_buffer_size(format.raw, outW, outH, 1))
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var dstData = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var dstLines = [Int32](repeating: 0, count: 4)
        let result: Int32 = bytes.withUnsafeMutableBufferPointer { out in
            av_image_fill_arrays(&dstData, &dstLines, out.baseAddress, format.raw, outW, outH, 1)
            return withUnsafePointer(to: src.pointee.data) { dataTuple in
                withUnsafePointer(to: src.pointee.linesize) { linesTuple in
                    dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                        linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                            sws_scale(context, data, lines, 0, src.pointee.height, &dstData, &dstLines)
                        }
                    }
                }
            }
        }
        guard result > 0 else {
            throw MediaError(.invalidArgument, url: "", operation: .convert, ffmpegCode: result)
        }
        return Self.layout(bytes: bytes, format: format, width: outW, height: outH, time: frame.time)
    }

    private static func layout(bytes: [UInt8], format: PixelFormat, width: Int32, height: Int32, time: MediaTime)
        -> VideoImage
    {
        var data = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4)
        var lines = [Int32](repeating: 0, count: 4)
        let base = UnsafeMutablePointer<UInt8>(bitPattern: 0x1000)!
        av_image_fill_arrays(&data, &lines, base, format.raw, width, height, 1)
        var offsets: [Int] = []
        var strides: [Int] = []
        for plane in 0..<4 where data[plane] != nil && lines[plane] > 0 {
            offsets.append(data[plane]! - base)
            strides.append(Int(lines[plane]))
        }
        return VideoImage(width: Int(width), height: Int(height), pixelFormat: format, bytes: bytes,
                          planeOffsets: offsets, bytesPerRow: strides, time: time)
    }
}
