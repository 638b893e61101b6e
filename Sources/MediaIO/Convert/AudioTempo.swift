import CFFmpeg

/// Changes the speed of interleaved float audio without changing its pitch (time-stretching), with libavfilter's
/// `atempo` filter: what AVPlayer's default time-pitch algorithm does for rates other than 1. With `keepsPitch`
/// false the pitch follows the rate instead (AVFoundation's `varispeed`, a tape played faster): the samples are
/// taken as recorded at `sampleRate x rate` and resampled to `sampleRate` (`asetrate`, `aresample`).
///
/// At rate `R` the output lasts about `1/R` of the input. Every output buffer's `time` stays in *media time*: the
/// time of the first input sample it corresponds to, so a player can keep pacing audio by the media playhead. At
/// rate 1 buffers pass through untouched.
///
/// Input is expected to be contiguous; call `reset()` at a discontinuity (a seek). One thread at a time
/// (`@unchecked Sendable` so it can be made on one thread and used on another: it owns its filter graph, which only
/// the thread using it touches).
public final class AudioTempo: @unchecked Sendable {
    public let sampleRate: Int
    public let channels: Int
    /// The speed factor: 2 plays twice as fast (half as many output samples), 0.5 half as fast.
    public private(set) var rate: Double
    /// Whether the pitch is kept (time-stretching) or follows the rate (resampling).
    public private(set) var keepsPitch = true
    /// `abuffer -> atempo (one or more) -> aformat -> abuffersink`; nil at rate 1, after a reset and after a flush
    /// (built again when needed).
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    /// libavfilter's functions, once the first graph is built (loaded on demand: see `FilterLibrary`).
    private var filters: FilterLibrary?
    private let frame: UnsafeMutablePointer<AVFrame>
    private var layout = AVChannelLayout()
    /// Media time of the first input sample since the last reset; output times count from it.
    private var origin: MediaTime?
    /// Input and output sample frames since the last reset.
    private var framesIn: Int64 = 0
    private var framesOut: Int64 = 0

    /// A time-stretcher for `channels` interleaved float channels at `sampleRate` Hz. Throws `.invalidArgument` for a
    /// rate that is not positive and finite, or a graph FFmpeg refuses.
    public init(sampleRate: Int, channels: Int, rate: Double = 1, keepsPitch: Bool = true) throws(MediaError) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.rate = 1
        self.frame = av_frame_alloc()
        av_channel_layout_default(&layout, Int32(max(channels, 1)))
        try setRate(rate, keepsPitch: keepsPitch)
    }

    deinit {
        freeGraph()
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
        av_channel_layout_uninit(&layout)
    }

    /// Changes the rate (and whether the pitch is kept). A change drops whatever the filter holds (as `reset()`
    /// does) and rebuilds the graph.
    public func setRate(_ newRate: Double, keepsPitch newKeepsPitch: Bool = true) throws(MediaError) {
        guard newRate.isFinite, newRate > 0 else {
            throw MediaError(
                .invalidArgument, url: "atempo", operation: .convert,
                reason: "tempo rate \(newRate) is not positive and finite")
        }
        guard newRate != rate || newKeepsPitch != keepsPitch else { return }
        rate = newRate
        keepsPitch = newKeepsPitch
        reset()
        // Build now so that a graph FFmpeg refuses is reported here rather than at the first buffer.
        if rate != 1 { try buildGraph() }
    }

    /// Drops what the filter holds (after a seek or before a discontinuity); the next buffer starts afresh.
    public func reset() {
        freeGraph()
        source = nil
        sink = nil
        origin = nil
        framesIn = 0
        framesOut = 0
    }

    /// Time-stretches one buffer. Returns the output ready so far: possibly none while the filter fills, possibly
    /// several buffers. At rate 1 returns `[buffer]` unchanged.
    public func process(_ buffer: AudioBuffer) throws(MediaError) -> [AudioBuffer] {
        guard rate != 1 else { return [buffer] }
        guard buffer.channels == channels, buffer.sampleRate == sampleRate else {
            throw MediaError(
                .invalidArgument, url: "atempo", operation: .convert,
                reason:
                    "expected \(channels) channels at \(sampleRate) Hz, got \(buffer.channels) at \(buffer.sampleRate)")
        }
        guard buffer.frameCount > 0 else { return [] }
        if graph == nil { try buildGraph() }
        if origin == nil { origin = buffer.time }
        try push(buffer.samples, frames: buffer.frameCount)
        return try pull()
    }

    /// Ends the stream: returns what the filter still holds. The next `process` starts afresh.
    public func flush() -> [AudioBuffer] {
        defer { reset() }
        guard rate != 1, let source, framesIn > 0 else { return [] }
        guard let filters, filters.addFrame(source, nil, 0) >= 0 else { return [] }
        return (try? pull()) ?? []
    }

    /// Media time (in the input's timeline) of the next output sample, once input has started.
    public var nextOutputTime: MediaTime? {
        origin.map { $0 + MediaTime(value: Int64((Double(framesOut) * rate).rounded()), timescale: Int32(sampleRate)) }
    }

    /// The `atempo` factors whose product is `rate`, each within atempo's best range 0.5...2
    /// (0.25 = 0.5 × 0.5, 4 = 2 × 2, 3 = 2 × 1.5).
    public static func chain(_ rate: Double) -> [Double] {
        var factors: [Double] = []
        var rest = rate
        while rest > 2 {
            factors.append(2)
            rest /= 2
        }
        while rest < 0.5 {
            factors.append(0.5)
            rest /= 0.5
        }
        factors.append(rest)
        return factors
    }
}

// MARK: The filter graph

extension AudioTempo {
    /// Builds `abuffer -> atempo... -> aformat -> abuffersink` for the current rate, replacing any graph.
    private func buildGraph() throws(MediaError) {
        let filters = try FilterLibrary.loaded()
        self.filters = filters
        freeGraph()
        source = nil
        sink = nil
        guard let made = filters.graphAlloc() else {
            throw MediaError(.other, url: "atempo", operation: .convert, reason: "cannot allocate a filter graph")
        }
        graph = made
        var name = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &name, name.count)
        let layoutName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let format = "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutName)"
        let steps: [(filter: String, args: String)] =
            [("abuffer", "time_base=1/\(sampleRate):\(format)")]
            + (keepsPitch
                ? Self.chain(rate).map { ("atempo", "tempo=\($0)") }
                : [
                    ("asetrate", "sample_rate=\(max(1, Int((Double(sampleRate) * rate).rounded())))"),
                    ("aresample", "\(sampleRate)"),
                ])
            + [
                ("aformat", "sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layoutName)"),
                ("abuffersink", ""),
            ]
        var previous: UnsafeMutablePointer<AVFilterContext>?
        for (index, step) in steps.enumerated() {
            var context: UnsafeMutablePointer<AVFilterContext>?
            var result = playctl_averror(EINVAL)
            if let filter = filters.getByName(step.filter) {
                result = filters.createFilter(
                    &context, filter, "\(step.filter)\(index)",
                    step.args.isEmpty ? nil : step.args, nil, made)
            }
            if result >= 0, let previous, let context { result = filters.link(previous, 0, context, 0) }
            guard result >= 0, let context else { throw graphFailure(result, "cannot add \(step.filter)=\(step.args)") }
            if index == 0 { source = context }
            previous = context
        }
        sink = previous
        let result = filters.graphConfig(made, nil)
        guard result >= 0 else { throw graphFailure(result, "cannot configure the atempo graph") }
    }

    /// Frees the graph, if any (there is one only once the library is loaded).
    private func freeGraph() {
        guard graph != nil, let filters else { return }
        filters.graphFree(&graph)
    }

    /// Frees the half-built graph and describes why it failed.
    private func graphFailure(_ code: Int32, _ what: String) -> MediaError {
        freeGraph()
        source = nil
        sink = nil
        return MediaError(
            .invalidArgument, url: "atempo", operation: .convert,
            code: code, reason: "\(what): \(MediaError.ffmpegMessage(code))")
    }

    /// Sends `frames` interleaved sample frames into the graph.
    func push(_ samples: [Float], frames: Int) throws(MediaError) {
        av_frame_unref(frame)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        frame.pointee.nb_samples = Int32(frames)
        frame.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        var result = av_channel_layout_copy(&frame.pointee.ch_layout, &layout)
        if result >= 0 { result = av_frame_get_buffer(frame, 0) }
        if result >= 0, let plane = frame.pointee.data.0 {
            let count = min(samples.count, frames * channels)
            samples.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(plane).copyMemory(
                    from: raw.baseAddress!, byteCount: count * MemoryLayout<Float>.size)
            }
            frame.pointee.pts = framesIn
            // Takes the frame's reference and leaves `frame` blank.
            result = filters?.addFrame(source, frame, 0) ?? playctl_averror(EINVAL)
        }
        av_frame_unref(frame)
        guard result >= 0 else { throw MediaError(.other, url: "atempo", operation: .convert, ffmpegCode: result) }
        framesIn += Int64(frames)
    }

    /// Takes every buffer the graph has ready, timed in media time.
    func pull() throws(MediaError) -> [AudioBuffer] {
        var buffers: [AudioBuffer] = []
        while let sink, let filters {
            let result = filters.getFrame(sink, frame)
            if result == playctl_averror_eagain() || result == playctl_averror_eof() { break }
            guard result >= 0 else { throw MediaError(.other, url: "atempo", operation: .convert, ffmpegCode: result) }
            let frames = Int(frame.pointee.nb_samples)
            let count = frames * channels
            let samples = [Float](unsafeUninitializedCapacity: count) { out, initialized in
                if count > 0, let plane = frame.pointee.data.0 {
                    UnsafeMutableRawPointer(out.baseAddress!).copyMemory(
                        from: plane, byteCount: count * MemoryLayout<Float>.size)
                }
                initialized = count
            }
            av_frame_unref(frame)
            guard frames > 0 else { continue }
            let time = nextOutputTime ?? .zero
            framesOut += Int64(frames)
            buffers.append(AudioBuffer(samples: samples, channels: channels, sampleRate: sampleRate, time: time))
        }
        return buffers
    }
}
