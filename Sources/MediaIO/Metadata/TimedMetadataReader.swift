import CFFmpeg

/// What a timed metadata reader's `next(until:)` read.
public enum TimedMetadataStep: Sendable, Equatable {
    /// The next sample.
    case sample(TimedMetadataSample)
    /// The reader's position passed the limit before the next sample: call again with a later one.
    case reachedLimit
    /// The end of the media.
    case end
}

/// A reader of timed metadata samples, ahead of a playhead: ``TimedMetadataReader`` (a demuxer's timed ID3 or
/// `mebx` track) or ``EventMessageReader`` (a fragmented MP4's `emsg` boxes). Blocking; one thread at a time.
public protocol TimedMetadataSource: AnyObject, Sendable {
    /// How far into the media the reader has read (every sample before it was returned); nil before anything.
    var position: MediaTime? { get }
    /// The next sample, or ``TimedMetadataStep/reachedLimit`` once the reader has read past `limit` (a time from the
    /// media's start) without finding one, or ``TimedMetadataStep/end``.
    func next(until limit: MediaTime) throws(MediaError) -> TimedMetadataStep
    /// Moves to about `time`: the samples read next are from there on, maybe from before it.
    func seek(toAtOrBefore time: MediaTime) throws(MediaError)
}

extension TimedMetadataSource {
    /// The next sample, in file order; nil at the end.
    public func next() throws(MediaError) -> TimedMetadataSample? {
        while true {
            switch try next(until: .positiveInfinity) {
            case .sample(let sample): return sample
            case .end: return nil
            case .reachedLimit: continue
            }
        }
    }
}

/// Reads one timed ID3 metadata track (FFmpeg's codec `timed_id3`: ID3 tags in MPEG-TS PES packets, stream type 0x15,
/// as HLS timed metadata carries them), or one QuickTime timed metadata track of an MP4 (`mebx`: its samples'
/// boxed items decoded with the track's ``MetadataKeyTable``), into samples, in file order.
///
/// Reads `demuxer`, which it expects to serve it alone (other streams are discarded). FFmpeg has no decoder for the
/// codec: each packet's bytes are an ID3 tag, read by ``ID3Tag``. FFmpeg 5.1's MPEG-TS demuxer drops the first five
/// bytes of each such packet (it takes them for a metadata access unit header); the tag is read without them then
/// (``TimedMetadataSample/bytes`` holds what the demuxer gave). Blocking: use it from a thread of its own. One
/// thread at a time (`@unchecked Sendable` so it can be moved to that thread).
public final class TimedMetadataReader: TimedMetadataSource, @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    let startTicks: Int64
    let timeBase: AVRational
    private let packet = Packet()
    /// Packets skipped: not an ID3 tag, or without a timestamp; a `mebx` sample none of whose items has a known key.
    public private(set) var damagedPackets = 0
    /// A `mebx` track's key table (nil for a timed ID3 track).
    public let keyTable: MetadataKeyTable?

    /// Reads timed metadata track `stream` of `demuxer` (its first when nil); a `mebx` track with `keyTable` (read
    /// from the file's moov: ``MetadataKeyTable/read(from:url:trackID:)``).
    /// - Throws: `.noDecodableStream`, naming the demuxer's URL, when there is no such track, or it is a `mebx`
    ///   track without a key table.
    public init(demuxer: Demuxer, stream: Int? = nil, keyTable: MetadataKeyTable? = nil) throws(MediaError) {
        let timed = demuxer.tracks.filter(Self.reads)
        guard let track = stream.map({ index in timed.first { $0.index == index } }) ?? timed.first else {
            throw MediaError(
                .noDecodableStream, url: demuxer.url, operation: .probe,
                reason: stream.map { "stream \($0) is not a timed metadata track" } ?? "no timed metadata track"
            )
        }
        if track.codec == "mebx" && keyTable == nil {
            throw MediaError(
                .noDecodableStream, url: demuxer.url, operation: .probe,
                reason: "timed metadata track \(track.index) (mebx) has no key table in its sample description")
        }
        self.keyTable = keyTable
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
    public typealias Step = TimedMetadataStep

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

    /// Whether `track` is a timed metadata track this reader reads (codec `timed_id3`, or `mebx`).
    public static func reads(_ track: TrackInfo) -> Bool { track.codec == "timed_id3" || track.codec == "mebx" }

    /// The MP4 track id of stream `index` of `demuxer` (FFmpeg's `AVStream.id`), which names its moov `trak`.
    public static func trackID(of demuxer: Demuxer, stream index: Int) -> Int { Int(demuxer.stream(index).pointee.id) }

    /// The sample of the packet just read, nil (counted) when it is not an ID3 tag or has no time.
    private func sample() -> TimedMetadataSample? {
        let bytes = packet.bytes
        if let keyTable {
            // An empty sample is a span without metadata (no group), not damage.
            guard !bytes.isEmpty else { return nil }
            let items = keyTable.items(in: bytes)
            guard let ticks = packet.pts ?? packet.dts, !items.isEmpty else {
                damagedPackets += 1
                return nil
            }
            let duration = packet.duration > 0 ? span(ofTicks: packet.duration) : nil
            return TimedMetadataSample(
                time: span(ofTicks: ticks - startTicks), duration: duration, bytes: bytes, frames: [], items: items)
        }
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
