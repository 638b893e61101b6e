import CFFmpeg

/// Converts decoded audio to interleaved 32-bit float at a chosen rate and channel count with libswresample.
/// Owns its `SwrContext`, freed in `deinit`; rebuilt when the input format changes. One thread at a time.
final class Resampler {
    let outputRate: Int32
    let outputChannels: Int32
    private var context: OpaquePointer?
    private var inputKey: (format: Int32, rate: Int32, channels: Int32, mask: UInt64)?
    private var outLayout = AVChannelLayout()

    init(outputRate: Int, outputChannels: Int) {
        self.outputRate = Int32(outputRate)
        self.outputChannels = Int32(outputChannels)
        av_channel_layout_default(&outLayout, Int32(outputChannels))
    }

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&outLayout)
    }

    /// Converts one decoded frame; returns interleaved float samples (possibly none while the resampler fills).
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, url: String) throws(MediaError) -> [Float] {
        try configure(for: frame, url: url)
        let inCount = frame.pointee.nb_samples
        let capacity = Int(swr_get_out_samples(context, inCount)) + 32
        var out = [Float](repeating: 0, count: capacity * Int(outputChannels))
        let produced: Int32 = out.withUnsafeMutableBytes { raw in
            var outPtr: UnsafeMutablePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &outPtr) { outPlanes in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { inPlanes in
                    swr_convert(context, outPlanes, Int32(capacity), inPlanes, inCount)
                }
            }
        }
        guard produced >= 0 else {
            throw MediaError(.decodeFailed, url: url, operation: .convert, ffmpegCode: produced)
        }
        out.removeLast(out.count - Int(produced) * Int(outputChannels))
        return out
    }

    /// Samples still inside the resampler's filter, in output samples.
    var delay: Int64 { context.map { swr_get_delay($0, Int64(outputRate)) } ?? 0 }

    /// Drops what the resampler holds (after a seek).
    func reset() {
        swr_free(&context)
        inputKey = nil
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>, url: String) throws(MediaError) {
        var inLayout = frame.pointee.ch_layout
        let key = (
            frame.pointee.format, frame.pointee.sample_rate, inLayout.nb_channels,
            inLayout.order == AV_CHANNEL_ORDER_NATIVE ? inLayout.u.mask : 0
        )
        if let inputKey, context != nil, inputKey == key { return }
        swr_free(&context)
        if inLayout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inLayout, inLayout.nb_channels)
        }
        var ctx: OpaquePointer?
        var result = swr_alloc_set_opts2(
            &ctx, &outLayout, AV_SAMPLE_FMT_FLT, outputRate, &inLayout,
            AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if result >= 0 { result = swr_init(ctx) }
        guard result >= 0, let ctx else {
            swr_free(&ctx)
            throw MediaError(.unsupportedCodec, url: url, operation: .convert, ffmpegCode: result)
        }
        context = ctx
        inputKey = key
    }
}
