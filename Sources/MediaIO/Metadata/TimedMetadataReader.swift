import CFFmpeg

/// Reads one timed ID3 metadata track (FFmpeg's codec `timed_id3`: ID3 tags in MPEG-TS PES packets, stream type 0x15,
/// as HLS timed metadata carries them) into samples, in file order.
///
/// Reads `demuxer`, which it expects to serve it alone (other streams are discarded). FFmpeg has no decoder for the
/// codec: each packet's bytes are an ID3 tag, read by ``ID3Tag``. FFmpeg 5.1's MPEG-TS demuxer drops the first five
/// bytes of each such packet (it takes them for a metadata access unit header); the tag is read without them then
/// (``TimedMetadataSample/bytes`` holds what the demuxer gave). Blocking: use it from a thread of its own. One
/// thread at a time (`@unchecked Sendable` so it can be moved to that thread).
public final class TimedMetadataReader: @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    let startTicks: Int64
    let timeBase: AVRational
    private let packet = Packet()
    /// Packets skipped: not an ID3 tag, or without a timestamp.
    public private(set) var damagedPackets = 0

    /// Reads timed ID3 track `stream` of `demuxer` (its first timed ID3 track when nil).
    /// - Throws: `.noDecodableStream`, naming the demuxer's URL, when there is no such track.
    public init(demuxer: Demuxer, stream: Int? = nil) throws(MediaError) {
        let timed = demuxer.tracks.filter(Self.reads)
        guard let track = stream.map({ index in timed.first { $0.index == index } }) ?? timed.first else {
            throw MediaError(
                .noDecodableStream, url: demuxer.url, operation: .probe,
                reason: stream.map { "stream \($0) is not a timed ID3 metadata track" } ?? "no timed ID3 metadata track"
            )
        }
        self.demuxer = demuxer
        self.track = track
        self.startTicks = demuxer.startTicks(stream: track.index)
        self.timeBase = demuxer.stream(track.index).pointee.time_base
        // The first video (else audio) stream is read too, for ``position``: how far into the media the reader is,
        // between samples (sparse: one every few seconds, or none for minutes). Its packets are not decoded.
        let pacing = demuxer.tracks.first { $0.kind == .video } ?? demuxer.tracks.first { $0.kind == .audio }
        self.pacingStream = pacing?.index
        demuxer.discardAllStreams(except: Set([track.index] + (pacing.map { [$0.index] } ?? [])))
    }

    /// The stream read for ``position`` (the first video, else audio stream), nil when there is none.
    public let pacingStream: Int?
    /// How far into the media the reader has read: the latest time of a packet read (from the media's start); nil
    /// before the first.
    public private(set) var position: MediaTime?

    /// What ``next(until:)`` read.
    public enum Step: Sendable, Equatable {
        /// The next sample.
        case sample(TimedMetadataSample)
        /// The reader's ``position`` passed the limit before the next sample: call again with a later one.
        case reachedLimit
        /// The end of the media.
        case end
    }

    /// The next sample, or ``Step/reachedLimit`` once the reader has read past `limit` (a time from the media's
    /// start) without finding one, or ``Step/end``.
    public func next(until limit: MediaTime) throws(MediaError) -> Step {
        if let position, position > limit { return .reachedLimit }
        while try demuxer.read(into: packet) {
            if let ticks = packet.pts ?? packet.dts {
                let stream = packet.streamIndex
                let base = stream == track.index ? timeBase : demuxer.stream(stream).pointee.time_base
                let start = stream == track.index ? startTicks : demuxer.startTicks(stream: stream)
                let time = MediaTime(value: (ticks - start) * Int64(base.num), timescale: base.den)
                position = max(position ?? time, time)
            }
            if packet.streamIndex == track.index, let sample = sample() { return .sample(sample) }
            if let position, position > limit { return .reachedLimit }
        }
        return .end
    }

    /// Moves to about `time` (the pacing stream's keyframe at or before it; the start without one): the samples
    /// read next are from there on, maybe from a little before.
    public func seek(toAtOrBefore time: MediaTime) throws(MediaError) {
        let index = pacingStream ?? track.index
        let base = index == track.index ? timeBase : demuxer.stream(index).pointee.time_base
        let offset = Int64((max(time.seconds, 0) * Double(base.den) / Double(max(base.num, 1))).rounded(.down))
        let ticks = demuxer.startTicks(stream: index) + offset
        try demuxer.seek(stream: index, toKeyframeAtOrBefore: ticks)
        position = nil
    }

    /// Whether `track` is a timed metadata track this reader reads (codec `timed_id3`).
    public static func reads(_ track: TrackInfo) -> Bool { track.codec == "timed_id3" }

    /// The next sample, in file order; nil at the end of the track.
    /// - Throws: a read error of the demuxer. A packet that is not an ID3 tag, or has no timestamp, is counted
    ///   (`damagedPackets`) and skipped.
    public func next() throws(MediaError) -> TimedMetadataSample? {
        while true {
            switch try next(until: .positiveInfinity) {
            case .sample(let sample): return sample
            case .end: return nil
            case .reachedLimit: continue
            }
        }
    }

    /// The sample of the packet just read, nil (counted) when it is not an ID3 tag or has no time.
    private func sample() -> TimedMetadataSample? {
        let bytes = packet.bytes
        guard let ticks = packet.pts ?? packet.dts,
            let frames = ID3Tag.frames(in: bytes) ?? ID3Tag.frames(withoutIdentifier: bytes)
        else {
            damagedPackets += 1
            return nil
        }
        let duration = packet.duration > 0 ? span(ofTicks: packet.duration) : nil
        return TimedMetadataSample(
            time: span(ofTicks: ticks - startTicks), duration: duration, bytes: bytes, frames: frames)
    }

    /// `ticks` of the track's time base as a time.
    private func span(ofTicks ticks: Int64) -> MediaTime {
        MediaTime(value: ticks * Int64(timeBase.num), timescale: timeBase.den)
    }
}
