import CFFmpeg

/// Encodes pictures as PNG with FFmpeg's own PNG encoder.
public enum PNGEncoder {
    /// PNG bytes of `frame` as a viewer shows it: converted to RGBA and turned upright (and mirrored) as its display
    /// matrix says.
    public static func encode(_ frame: VideoFrame, url: String = "") throws(MediaError) -> [UInt8] {
        let image = try FrameConverter().convert(frame, to: .rgba).oriented(
            mirrored: frame.mirrored, clockwise: frame.rotation)
        return try encode(image, url: url)
    }

    /// PNG bytes of a packed RGBA image.
    public static func encode(_ image: VideoImage, url: String = "") throws(MediaError) -> [UInt8] {
        guard image.pixelFormat == .rgba, let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(.invalidArgument, url: url, operation: .encode, reason: "PNG needs an RGBA image")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        var ctxOpt: UnsafeMutablePointer<AVCodecContext>? = ctx
        defer { avcodec_free_context(&ctxOpt) }
        ctx.pointee.width = Int32(image.width)
        ctx.pointee.height = Int32(image.height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGBA
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        var result = avcodec_open2(ctx, codec, nil)
        guard result >= 0 else { throw MediaError(.other, url: url, operation: .encode, ffmpegCode: result) }
        var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
        defer {
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let frame, let packet else { fatalError("av_frame_alloc: out of memory") }
        frame.pointee.width = ctx.pointee.width
        frame.pointee.height = ctx.pointee.height
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw MediaError(.other, url: url, operation: .encode, ffmpegCode: result) }
        let rowBytes = image.width * 4
        image.bytes.withUnsafeBufferPointer { src in
            let dst = frame.pointee.data.0!
            let stride = Int(frame.pointee.linesize.0)
            for y in 0..<image.height {
                (dst + y * stride).update(from: src.baseAddress! + y * rowBytes, count: rowBytes)
            }
        }
        result = avcodec_send_frame(ctx, frame)
        if result >= 0 { result = avcodec_send_frame(ctx, nil) }
        if result >= 0 { result = avcodec_receive_packet(ctx, packet) }
        guard result >= 0 else { throw MediaError(.other, url: url, operation: .encode, ffmpegCode: result) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
