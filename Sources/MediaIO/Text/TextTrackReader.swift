import CFFmpeg

/// Decodes one text subtitle track (SubRip, WebVTT, mov_text, ASS/SSA, ...) of a container or a subtitle file into
/// cues, with libavcodec's subtitle decoders (`avcodec_decode_subtitle2`), in file order.
///
/// Owns its decoder; reads `demuxer`, which it expects to serve it alone (other streams are discarded). Blocking:
/// use it from a thread of its own. One thread at a time (`@unchecked Sendable` so it can be moved to that thread).
public final class TextTrackReader: @unchecked Sendable {
    public let demuxer: Demuxer
    public let track: TrackInfo
    let decoder: Decoder
    let startTicks: Int64
    let timeBase: AVRational
    private let packet = Packet()
    /// Packets the decoder could not decode, and the last error it gave.
    public private(set) var damagedPackets = 0
    public private(set) var lastDecodeError: MediaError?
    /// Cues returned so far.
    public private(set) var cuesRead = 0

    /// Decodes subtitle track `stream` of `demuxer` (its first subtitle track when nil). Cue times are measured from
    /// the start of the media, or with `timesFromFileZero` from the file's time zero (a WebVTT file's `00:00.000`,
    /// whatever its first cue's time).
    /// - Throws: `.noDecodableStream` when there is no such subtitle track; `.unsupportedCodec` for a bitmap
    ///   subtitle track (PGS, DVD, DVB: listed, not rendered) or one FFmpeg has no decoder for.
    public init(demuxer: Demuxer, stream: Int? = nil, timesFromFileZero: Bool = false) throws(MediaError) {
        let subtitles = demuxer.tracks.filter { $0.kind == .subtitle }
        guard let track = stream.map({ index in subtitles.first { $0.index == index } }) ?? subtitles.first else {
            throw MediaError(
                .noDecodableStream, url: demuxer.url, operation: .probe,
                reason: stream.map { "stream \($0) is not a subtitle track" } ?? "no subtitle track")
        }
        if track.isBitmapSubtitle {
            throw MediaError(
                .unsupportedCodec, url: demuxer.url, operation: .openDecoder,
                reason: "\(track.codec) subtitles are pictures: listed, not rendered")
        }
        self.demuxer = demuxer
        self.track = track
        self.decoder = try Decoder(demuxer: demuxer, stream: track.index, threads: 1)
        self.startTicks = timesFromFileZero ? 0 : demuxer.startTicks(stream: track.index)
        self.timeBase = demuxer.stream(track.index).pointee.time_base
        demuxer.discardAllStreams(except: track.index)
    }

    /// Opens the subtitle file at `url` and its first subtitle track.
    public convenience init(subtitlesAt url: String) throws(MediaError) {
        try self.init(demuxer: Demuxer(subtitlesAt: url))
    }

    /// The cues of the next packet that has any, in file order; nil at the end of the track. A cue whose end the
    /// track does not give ends at `.positiveInfinity`.
    /// - Throws: a read error of the demuxer. A packet the decoder cannot decode is counted (`damagedPackets`) and
    ///   skipped.
    public func nextCues() throws(MediaError) -> [TextCue]? {
        while try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index else { continue }
            let cues = decodePacket()
            if !cues.isEmpty {
                cuesRead += cues.count
                return cues
            }
        }
        return nil
    }

    /// Decodes the current packet into cues (none for an empty or damaged packet).
    private func decodePacket() -> [TextCue] {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let result = avcodec_decode_subtitle2(decoder.context, &subtitle, &got, packet.pointer)
        defer { avsubtitle_free(&subtitle) }
        if result < 0 {
            damagedPackets += 1
            lastDecodeError = MediaError(.decodeFailed, url: demuxer.url, operation: .decode, ffmpegCode: result)
            return []
        }
        guard got != 0, let pts = packet.pts else { return [] }
        let start = time(ofTicks: pts) + MediaTime(value: Int64(subtitle.start_display_time), timescale: 1000)
        var end = MediaTime.positiveInfinity
        if packet.duration > 0 {
            end = time(ofTicks: pts + packet.duration)
        } else if subtitle.end_display_time > subtitle.start_display_time, subtitle.end_display_time != UInt32.max {
            end = time(ofTicks: pts) + MediaTime(value: Int64(subtitle.end_display_time), timescale: 1000)
        }
        var cues: [TextCue] = []
        for index in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[index]?.pointee else { continue }
            if let ass = rect.ass {
                let (style, text) = Self.dialogue(String(cString: ass))
                cues.append(TextCue(start: start, end: end, markup: text, style: style))
            } else if let plain = rect.text {
                cues.append(TextCue(start: start, end: end, markup: String(cString: plain)))
            }
        }
        return cues
    }

    /// The style and text of an ASS event line as libavcodec gives it: `ReadOrder, Layer, Style, Name, MarginL,
    /// MarginR, MarginV, Effect, Text` (the text may hold commas).
    static func dialogue(_ line: String) -> (style: String?, text: String) {
        let fields = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        guard fields.count == 9 else { return (nil, line) }
        let style = String(fields[2].filter { $0 != " " })
        var text = String(fields[8])
        while text.hasSuffix("\r") || text.hasSuffix("\n") { text.removeLast() }
        return (style.isEmpty ? nil : style, text)
    }

    /// A stream timestamp as a time measured from the start of the media.
    private func time(ofTicks ticks: Int64) -> MediaTime {
        MediaTime(value: (ticks - startTicks) * Int64(timeBase.num), timescale: timeBase.den)
    }
}
