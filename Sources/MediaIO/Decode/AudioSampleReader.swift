import CFFmpeg

/// Decodes an audio track of a media file (the first, or the one asked for) to interleaved float samples at a chosen
/// rate and channel count, with sample-accurate seeks. Blocking: use it from a thread of its own. One thread at a time (`@unchecked
/// Sendable` so it can be moved to that thread).
public final class AudioSampleReader: @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    public let sampleRate: Int
    public let channels: Int
    let decoder: Decoder
    let resampler: Resampler
    let startTicks: Int64
    let timeBase: AVRational
    private let packet = Packet()
    private var drainSent = false
    private var ended = false
    /// Output samples (per channel) produced since the last seek, and the time they started at.
    private var position: (origin: MediaTime, frames: Int64)?
    /// Samples before this time are dropped (after a seek).
    private var trimBefore: MediaTime?
    public private(set) var decodeErrorCount = 0

    /// Opens audio track `stream` of `demuxer` (its first audio track when nil); output at `sampleRate` Hz (the
    /// track's own when nil) with `channels` channels (the track's own when nil).
    /// - Throws: `.noDecodableStream` when there is no such audio track; the decoder's error when it cannot open.
    public init(demuxer: Demuxer, stream: Int? = nil, sampleRate: Int? = nil, channels: Int? = nil) throws(MediaError) {
        let chosen = stream.map { index in demuxer.tracks.first { $0.index == index && $0.kind == .audio } }
        guard let track = chosen ?? demuxer.audioTrack else {
            throw MediaError(
                .noDecodableStream, url: demuxer.url, operation: .probe,
                reason: stream.map { "stream \($0) is not an audio track" } ?? "no audio track")
        }
        self.demuxer = demuxer
        self.track = track
        self.decoder = try Decoder(demuxer: demuxer, stream: track.index, threads: 1)
        self.sampleRate = sampleRate ?? track.sampleRate ?? 48_000
        self.channels = channels ?? max(track.channels ?? 2, 1)
        self.resampler = Resampler(outputRate: self.sampleRate, outputChannels: self.channels)
        self.startTicks = demuxer.startTicks(stream: track.index)
        self.timeBase = demuxer.stream(track.index).pointee.time_base
    }

    /// Opens `url` for audio decoding (audio track `stream`, or the first).
    public convenience init(
        url: String, stream: Int? = nil, sampleRate: Int? = nil, channels: Int? = nil
    )
        throws(MediaError)
    {
        try self.init(demuxer: Demuxer(url: url), stream: stream, sampleRate: sampleRate, channels: channels)
    }

    /// The next buffer of samples, or nil at the end of the track.
    public func nextBuffer() throws(MediaError) -> AudioBuffer? {
        while !ended {
            switch try decoder.receive() {
            case .frame(let raw):
                var owned: UnsafeMutablePointer<AVFrame>? = raw
                defer { av_frame_free(&owned) }
                if let buffer = try makeBuffer(raw) { return buffer }
            case .endOfStream:
                ended = true
            case .needsInput:
                try feedOnePacket()
            case .damaged:
                decodeErrorCount += 1
            }
        }
        return nil
    }

    /// How far before a seek's target decoding starts: codecs whose frames overlap (AAC's MDCT, Opus) decode the
    /// first frame after a jump without what its predecessor leaves, so the reader decodes a little before the
    /// target and drops it. The samples from the target on then equal a decode from the start.
    static let seekPreroll = MediaTime(value: 1, timescale: 10)

    /// Moves so that the next buffer starts exactly at `time` (or at the first sample after it), with the samples a
    /// decode from the start gives there.
    public func seek(to time: MediaTime) throws(MediaError) {
        let target = time.isNumeric ? max(time, .zero) : .zero
        let preroll = max(target - Self.seekPreroll, .zero)
        let ticks =
            startTicks
            + MediaTime.rescale(
                preroll.value, Int64(timeBase.den),
                Int64(preroll.timescale) * Int64(timeBase.num))
        try demuxer.seek(stream: track.index, toKeyframeAtOrBefore: ticks)
        decoder.flush()
        resampler.reset()
        drainSent = false
        ended = false
        position = nil
        trimBefore = target
    }

    private func feedOnePacket() throws(MediaError) {
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index else { continue }
            if case .rejected = decoder.send(packet) { decodeErrorCount += 1 }
            return
        }
        if !drainSent {
            drainSent = true
            _ = decoder.send(nil)
        } else {
            ended = true
        }
    }

    private func makeBuffer(_ raw: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> AudioBuffer? {
        let frameTime: MediaTime? = {
            let ts = raw.pointee.best_effort_timestamp
            guard ts != playctl_nopts_value() else { return nil }
            return MediaTime(value: (ts - startTicks) * Int64(timeBase.num), timescale: timeBase.den)
        }()
        var samples = try resampler.convert(raw, url: demuxer.url)
        if position == nil { position = (frameTime ?? trimBefore ?? .zero, 0) }
        guard var origin = position, !samples.isEmpty else { return nil }
        var start = origin.origin + MediaTime(value: origin.frames, timescale: Int32(sampleRate))
        origin.frames += Int64(samples.count / channels)
        position = origin
        if let trim = trimBefore {
            // Drop whole samples before the seek target.
            let late = (trim - start).convertScale(Int32(sampleRate)).value
            let drop = Int(min(max(late, 0), Int64(samples.count / channels)))
            if drop > 0 {
                samples.removeFirst(drop * channels)
                start = start + MediaTime(value: Int64(drop), timescale: Int32(sampleRate))
            }
            if samples.isEmpty { return nil }
            trimBefore = nil
        }
        return AudioBuffer(samples: samples, channels: channels, sampleRate: sampleRate, time: start)
    }
}
