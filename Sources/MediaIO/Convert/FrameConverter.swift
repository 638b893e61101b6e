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
        try convert(frame, to: format, width: width, height: height, colours: nil)
    }

    /// `convert(_:to:width:height:)`, a picture that is not a decoded frame converted with `colours` (a decoded
    /// frame's own tags win).
    func convert(
        _ frame: VideoFrame, to format: PixelFormat, width: Int?, height: Int?, colours: ColourTags?
    ) throws(MediaError) -> VideoImage {
        let outW = Int32(width ?? frame.width)
        let outH = Int32(height ?? frame.height)
        if format == frame.pixelFormat && Int(outW) == frame.width && Int(outH) == frame.height {
            return Self.layout(bytes: frame.packedBytes(), format: format, width: outW, height: outH, time: frame.time)
        }
        let scratch = try write(frame, format: format, width: Int(outW), height: Int(outH), colours: colours)
        let bytes = scratch.packed()
        return Self.layout(bytes: bytes, format: format, width: outW, height: outH, time: frame.time)
    }

    /// Scales and converts `frame` into memory of the caller's: `planes` (one pointer per plane of `format`) with
    /// `strides` bytes from one row to the next, at `width`x`height`. The caller checks that the planes hold that
    /// many rows of at least the format's row size; only those bytes are written (libswscale writes into a padded
    /// scratch picture, copied out row by row: it may write past a row's end).
    public func scale(
        _ frame: VideoFrame, to format: PixelFormat, width: Int, height: Int,
        planes: [UnsafeMutablePointer<UInt8>?], strides: [Int32]
    ) throws(MediaError) {
        try write(frame, format: format, width: width, height: height).copy(into: planes, strides: strides)
    }

    /// `frame` scaled and converted into a padded scratch picture.
    private func write(
        _ frame: VideoFrame, format: PixelFormat, width: Int, height: Int, colours: ColourTags? = nil
    ) throws(MediaError) -> PaddedImage {
        let target = try Self.avFormat(format)
        context = sws_getCachedContext(
            context, Int32(frame.width), Int32(frame.height), frame.pixelFormat.avFormat, Int32(width),
            Int32(height), target, SWS_BICUBIC, nil, nil, nil)
        guard let context, var scratch = PaddedImage(format: target, width: Int32(width), height: Int32(height))
        else {
            throw MediaError(
                .invalidArgument, url: "", operation: .convert,
                reason: "libswscale cannot convert \(frame.pixelFormat) to \(format) at \(width)x\(height)")
        }
        // The frame's colour matrix and range, as the scale filter gives them (a stream tagged BT.709, say).
        if let decoded = frame.picture as? DecodedPicture {
            ScalerColours.apply(decoded, to: context)
        } else if let colours {
            ScalerColours.apply(colours, to: context)
        }
        let result = Self.withPlanes(of: frame) { data, lines in
            scratch.withPlanes { planes, strides in
                sws_scale(context, data, lines, 0, Int32(frame.height), planes, strides)
            }
        }
        guard result > 0 else {
            throw MediaError(.invalidArgument, url: "", operation: .convert, ffmpegCode: result)
        }
        return scratch
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

    /// The frame's planes as libswscale takes them: a decoded `AVFrame`'s own (FFmpeg pads them), or (for a
    /// picture made elsewhere) its packed bytes laid out with `av_image_fill_arrays`, with padding after them.
    private static func withPlanes<T>(
        of frame: VideoFrame,
        _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> T
    ) -> T {
        if let decoded = frame.picture as? DecodedPicture { return decoded.withPlanes(body) }
        // Padded: libswscale's SIMD code reads whole blocks, past the last row's end.
        var packed = frame.packedBytes() + [UInt8](repeating: 0, count: Int(PaddedImage.alignment))
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

    /// `bytes` (planes packed with alignment 1) as a `VideoImage` of `format` at `width`x`height`.
    static func layout(
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
