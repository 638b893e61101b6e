import CFFmpeg

/// One picture through one of FFmpeg's image encoders (PNG, MJPEG): the encoder opened for the size and format,
/// a frame of that size filled by the caller, sent and drained, the packet's bytes returned.
enum StillEncoder {
    /// The bytes `codec` makes of a `width`x`height` picture in `format`: `configure` sets the context's options
    /// before it opens, `fill` writes the pixels into the frame's planes.
    static func encode(
        codec id: AVCodecID, format: AVPixelFormat, width: Int, height: Int, url: String,
        configure: (UnsafeMutablePointer<AVCodecContext>) -> Void = { _ in },
        fill: (UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Void
    ) throws(MediaError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(id) else {
            throw MediaError(
                .unsupportedCodec, url: url, operation: .encode,
                reason: "no \(String(cString: avcodec_get_name(id))) encoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        var ctxOpt: UnsafeMutablePointer<AVCodecContext>? = ctx
        defer { avcodec_free_context(&ctxOpt) }
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = format
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        configure(ctx)
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
        frame.pointee.format = format.rawValue
        frame.pointee.quality = ctx.pointee.global_quality
        result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw MediaError(.other, url: url, operation: .encode, ffmpegCode: result) }
        try fill(frame)
        result = avcodec_send_frame(ctx, frame)
        if result >= 0 { result = avcodec_send_frame(ctx, nil) }
        if result >= 0 { result = avcodec_receive_packet(ctx, packet) }
        guard result >= 0 else { throw MediaError(.other, url: url, operation: .encode, ffmpegCode: result) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
