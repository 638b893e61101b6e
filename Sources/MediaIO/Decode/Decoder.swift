import CFFmpeg

/// One libavcodec decoder for one stream, using FFmpeg's own frame and slice threading.
/// Owns its `AVCodecContext`, freed in `deinit`. Used by one thread at a time.
final class Decoder {
    enum Received {
        case frame(UnsafeMutablePointer<AVFrame>)
        case needsInput
        case endOfStream
        /// A frame could not be decoded (damaged data; FFmpeg's frame threads report a packet's error when its
        /// frame is received). The decoder goes on with the next one.
        case damaged(Int32)
    }

    /// Failed receives in a row after which the decoder is taken to be stuck rather than fed damaged data.
    static let consecutiveFailureLimit = 64

    enum Sent {
        case accepted
        /// The decoder's output is full: receive frames, then send the same packet again.
        case outputFull
        /// The packet was damaged; the decoder dropped it and goes on.
        case rejected(Int32)
    }

    let context: UnsafeMutablePointer<AVCodecContext>
    let url: String
    /// Receives that failed since the last frame or request for input.
    private var consecutiveFailures = 0

    /// Opens a decoder for stream `index` of `demuxer`. `threads` 0 lets FFmpeg choose (as the ffmpeg CLI does).
    /// `slicesOnly` keeps the threads to the slices of one frame: no frame threading, so no output delay.
    /// `lowres` decodes at 1/2^lowres of the size, for the codecs that can (JPEG: up to 3; others ignore it).
    init(
        demuxer: Demuxer, stream index: Int, threads: Int = 0, slicesOnly: Bool = false, lowres: Int = 0
    ) throws(MediaError) {
        url = demuxer.url
        let stream = demuxer.stream(index)
        let par = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw MediaError(
                .unsupportedCodec, url: demuxer.url, operation: .openDecoder,
                code: playctl_averror_decoder_not_found(),
                reason: "no decoder for \(String(cString: avcodec_get_name(par.pointee.codec_id)))")
        }
        guard let ctx = avcodec_alloc_context3(codec) else { fatalError("avcodec_alloc_context3: out of memory") }
        var owned: UnsafeMutablePointer<AVCodecContext>? = ctx
        var result = avcodec_parameters_to_context(ctx, par)
        if result >= 0 {
            ctx.pointee.pkt_timebase = stream.pointee.time_base
            ctx.pointee.thread_count = Int32(threads)
            ctx.pointee.thread_type = slicesOnly ? FF_THREAD_SLICE : FF_THREAD_FRAME | FF_THREAD_SLICE
            ctx.pointee.lowres = Int32(min(max(lowres, 0), Int(codec.pointee.max_lowres)))
            result = avcodec_open2(ctx, codec, nil)
        }
        guard result >= 0 else {
            avcodec_free_context(&owned)
            throw MediaError(.unsupportedCodec, url: demuxer.url, operation: .openDecoder, ffmpegCode: result)
        }
        context = ctx
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&ctx)
    }

    /// When true, frames that no other frame references are not decoded at all (`skip_frame = AVDISCARD_NONREF`).
    /// Applies to the packets sent after it is set.
    var skipsNonReferenceFrames: Bool = false {
        didSet { context.pointee.skip_frame = skipsNonReferenceFrames ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
    }

    /// Sends a packet, or `nil` to start draining at the end of the stream.
    func send(_ packet: Packet?) -> Sent {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result >= 0 || result == playctl_averror_eof() { return .accepted }
        if result == playctl_averror_eagain() { return .outputFull }
        return .rejected(result)
    }

    /// Receives the next decoded frame, if one is ready.
    /// - Throws: `decodeFailed` only when receiving keeps failing (`consecutiveFailureLimit` times in a row); a
    ///   single failure is `.damaged`.
    func receive() throws(MediaError) -> Received {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        let result = avcodec_receive_frame(context, frame)
        if result >= 0 {
            consecutiveFailures = 0
            return .frame(frame)
        }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
        if result == playctl_averror_eagain() {
            consecutiveFailures = 0
            return .needsInput
        }
        if result == playctl_averror_eof() { return .endOfStream }
        consecutiveFailures += 1
        if consecutiveFailures >= Self.consecutiveFailureLimit {
            throw MediaError(.decodeFailed, url: url, operation: .decode, ffmpegCode: result)
        }
        return .damaged(result)
    }

    /// Forgets every buffered packet and frame (after a seek), and leaves draining mode.
    func flush() {
        avcodec_flush_buffers(context)
        consecutiveFailures = 0
    }
}
