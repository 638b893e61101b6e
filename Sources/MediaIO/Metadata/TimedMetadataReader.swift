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
        demuxer.discardAllStreams(except: track.index)
    }

    /// Whether `track` is a timed metadata track this reader reads (codec `timed_id3`).
    public static func reads(_ track: TrackInfo) -> Bool { track.codec == "timed_id3" }

    /// The next sample, in file order; nil at the end of the track.
    /// - Throws: a read error of the demuxer. A packet that is not an ID3 tag, or has no timestamp, is counted
    ///   (`damagedPackets`) and skipped.
    public func next() throws(MediaError) -> TimedMetadataSample? {
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index else { continue }
            let bytes = packet.bytes
            guard let ticks = packet.pts ?? packet.dts,
                let frames = ID3Tag.frames(in: bytes) ?? ID3Tag.frames(withoutIdentifier: bytes)
            else {
                damagedPackets += 1
                continue
            }
            let duration = packet.duration > 0 ? span(ofTicks: packet.duration) : nil
            return TimedMetadataSample(
                time: span(ofTicks: ticks - startTicks), duration: duration, bytes: bytes, frames: frames)
        }
        return nil
    }

    /// `ticks` of the track's time base as a time.
    private func span(ofTicks ticks: Int64) -> MediaTime {
        MediaTime(value: ticks * Int64(timeBase.num), timescale: timeBase.den)
    }
}
