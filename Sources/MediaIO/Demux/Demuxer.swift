import CFFmpeg

/// An open media file or URL: its tracks, its duration, and its packets in file order.
///
/// Owns one `AVFormatContext`, closed in `deinit`. Not thread-safe: one thread reads it at a time (it may move
/// between threads, which is why it is `@unchecked Sendable`: all mutation happens through its methods on the
/// thread that currently owns it).
public final class Demuxer: @unchecked Sendable {
    /// The path or URL this was opened from.
    public let url: String
    /// Every stream of the container.
    public let tracks: [TrackInfo]
    /// The container's duration, or nil when it does not say (live streams, some raw formats).
    public let duration: MediaTime?
    /// Whether it reads a live segmented stream (one whose manifest has no end yet): it has no duration, whatever
    /// its tracks' headers say.
    public var isLive: Bool { segmented != nil && duration == nil }
    /// The container's name as FFmpeg knows it (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, ...).
    public let formatName: String
    /// Where the media's time starts, in `AV_TIME_BASE` units: the container's first timestamp (or the earlier
    /// start of a demuxer it shares its timeline with, ``shareStartTime(with:)``).
    public private(set) var startTime: Int64

    /// The key MP4 common encryption is decrypted with (32 hex digits), when given.
    public let decryptionKey: String?
    /// The format context; replaced when a segmented source is reopened at a segment (``reopenAtSegment(seconds:)``).
    private(set) var context: UnsafeMutablePointer<AVFormatContext>
    /// The custom I/O when reading a `ByteSource`; freed after the format context.
    private var customIO: CustomIO?
    /// The source when it presents segments (HLS, DASH): seeks reopen the stream at a segment.
    private let segmented: (any SegmentedByteSource)?
    /// The streams ``discardAllStreams(except:)`` kept, applied again to a reopened context.
    private var keptStreams: Set<Int>?
    /// The time base of each stream as first opened: packets of a context reopened on another variant are
    /// rescaled to it, so times go on in the units the decoders were given.
    private var timeBases: [AVRational] = []
    /// New codec headers (`extradata`) of a reopened context's streams, handed to each decoder with the stream's
    /// next packet (`AV_PKT_DATA_NEW_EXTRADATA`), as a container with several sample descriptions does.
    private var pendingExtradata: [Int: [UInt8]] = [:]

    /// Opens and probes `url` (a path, or any URL libavformat opens), or reads `source` instead when given (`url`
    /// then names it in errors and its extension helps probing).
    /// With `decryptionKey` (32 hex digits: a clear key of MP4 common encryption, `cenc-aes-ctr`), encrypted
    /// samples are decrypted; without one, reading an encrypted sample fails with `.encrypted`.
    /// - Throws: `MediaError` whose kind tells missing, unreadable, directory, empty, not media, truncated, no
    ///   decodable stream or unsupported codec apart; `.invalidArgument` for a key that is not 32 hex digits.
    public convenience init(
        url: String, source: (any ByteSource)? = nil, decryptionKey: String? = nil
    )
        throws(MediaError)
    {
        try self.init(url: url, source: source, probed: nil, decryptionKey: decryptionKey)
    }

    /// Opens a subtitle file (`.srt`, `.vtt`, `.ass`, ...: anything libavformat reads as a subtitle stream), or
    /// reads `source` instead when given. A file with no audio or video is what is expected here.
    /// - Throws: `MediaError` naming the file: missing, unreadable, not media, or `.noDecodableStream` when it holds
    ///   no subtitle stream.
    public convenience init(subtitlesAt url: String, source: (any ByteSource)? = nil) throws(MediaError) {
        try self.init(url: url, source: source, probed: nil, decryptionKey: nil, subtitlesOnly: true)
    }

    /// Opens the same media once more for another reader (each pipeline then reads at its own pace), through
    /// `source` when given. A container whose header lists every stream is not probed again: its streams take this
    /// demuxer's probed parameters and timings, which saves decoding the first frames (time and memory) twice.
    public func reopen(source: (any ByteSource)? = nil) throws(MediaError) -> Demuxer {
        try Demuxer(url: url, source: source, probed: self, decryptionKey: decryptionKey)
    }

    private init(
        url: String, source: (any ByteSource)?, probed: Demuxer?, decryptionKey: String?, subtitlesOnly: Bool = false
    ) throws(MediaError) {
        FFmpegLog.configure()
        self.url = url
        self.decryptionKey = decryptionKey
        self.segmented = source as? any SegmentedByteSource
        if let key = decryptionKey, key.count != 32 || !key.allSatisfy(\.isHexDigit) {
            throw MediaError(
                .invalidArgument, url: url, operation: .open, reason: "a decryption key is 32 hex digits, not '\(key)'")
        }
        if source == nil { try FileCheck.preflight(url) }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        let io = source.map { CustomIO(source: $0) }
        customIO = io
        if let io {
            ctx = avformat_alloc_context()
            ctx?.pointee.pb = io.context
            ctx?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var options: OpaquePointer? = nil
        if let decryptionKey { av_dict_set(&options, "decryption_key", decryptionKey, 0) }
        Self.restrictProtocols(&options, customIO: io != nil)
        let openResult = avformat_open_input(&ctx, url, nil, &options)
        av_dict_free(&options)
        guard openResult >= 0, let ctx else {
            if let error = io?.takeError() { throw error }
            throw FileCheck.classifyOpenFailure(url: url, code: openResult)
        }
        var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
        let name = String(cString: ctx.pointee.iformat.pointee.name)
        if FileCheck.textOnlyFormats.contains(name) {
            avformat_close_input(&owned)
            throw MediaError(
                .notMedia, url: url, operation: .probe,
                reason: "FFmpeg reads it only as text (\(name) demuxer)")
        }
        if let probed, Self.adopt(probed.context, into: ctx) {
            self.context = ctx
            self.formatName = name
            self.startTime = probed.startTime
            self.duration = probed.duration
            self.tracks = probed.tracks
            return
        }
        let infoResult = avformat_find_stream_info(ctx, nil)
        if infoResult < 0 {
            avformat_close_input(&owned)
            if let error = io?.takeError() { throw error }
            throw MediaError(.truncated, url: url, operation: .probe, ffmpegCode: infoResult)
        }
        self.context = ctx
        self.formatName = name
        let start = ctx.pointee.start_time
        self.startTime = start == playctl_nopts_value() ? 0 : start
        let d = ctx.pointee.duration
        if let segmented {
            // A segmented stream's length is its manifest's (libavformat would guess it from a bitrate, or from a
            // live fMP4's first fragments); none for a live one.
            self.duration = segmented.presentationDuration.map {
                MediaTime(value: Int64($0 * Double(AV_TIME_BASE)), timescale: AV_TIME_BASE)
            }
        } else {
            self.duration = d == playctl_nopts_value() || d <= 0 ? nil : MediaTime(value: d, timescale: AV_TIME_BASE)
        }
        self.tracks = (0..<Int(ctx.pointee.nb_streams)).map { TrackInfo(stream: ctx.pointee.streams[$0]!, index: $0) }
        if subtitlesOnly {
            guard tracks.contains(where: { $0.kind == .subtitle }) else {
                throw MediaError(
                    .noDecodableStream, url: url, operation: .probe,
                    reason: "no subtitle stream (\(name) holds " + tracks.map(\.kind.rawValue).joined(separator: ", ")
                        + ")")
            }
        } else {
            try validateStreams()
        }
    }

    /// Gives `ctx` (just opened, not probed) the codec parameters and timings `probed` found, when its header
    /// already listed the same streams. Returns false when it must be probed itself (streams found only by reading).
    private static func adopt(
        _ probed: UnsafeMutablePointer<AVFormatContext>, into ctx: UnsafeMutablePointer<AVFormatContext>,
        headerless: Bool = false
    ) -> Bool {
        guard headerless || ctx.pointee.ctx_flags & AVFMTCTX_NOHEADER == 0,
            ctx.pointee.nb_streams == probed.pointee.nb_streams
        else { return false }
        for i in 0..<Int(ctx.pointee.nb_streams) {
            let mine = ctx.pointee.streams[i]!
            let theirs = probed.pointee.streams[i]!
            guard mine.pointee.codecpar.pointee.codec_id == theirs.pointee.codecpar.pointee.codec_id,
                avcodec_parameters_copy(mine.pointee.codecpar, theirs.pointee.codecpar) >= 0
            else { return false }
            mine.pointee.start_time = theirs.pointee.start_time
            mine.pointee.duration = theirs.pointee.duration
        }
        ctx.pointee.start_time = probed.pointee.start_time
        ctx.pointee.duration = probed.pointee.duration
        return true
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&ctx)
        _ = customIO  // released after the format context that reads through it
    }

    /// Puts this demuxer's time zero and `other`'s at the earlier of their starts, so that both give times on one
    /// timeline as a file muxing their streams would (its start is its earliest stream's): an HLS or DASH audio
    /// rendition read beside video-only variants, whose timestamps are on the presentation's timeline. Call it
    /// before making a reader of either (readers take the start when made).
    public func shareStartTime(with other: Demuxer) {
        let start = min(startTime, other.startTime)
        startTime = start
        other.startTime = start
    }

    /// The first video track, if any.
    public var videoTrack: TrackInfo? { tracks.first { $0.kind == .video && !isAttachedPicture($0.index) } }
    /// The first audio track, if any.
    public var audioTrack: TrackInfo? { tracks.first { $0.kind == .audio } }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { context.pointee.streams[index]! }

    func isAttachedPicture(_ index: Int) -> Bool {
        stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
    }

    /// The container start in a stream's own time base (what a stream timestamp of "time zero" is).
    func startTicks(stream index: Int) -> Int64 {
        av_rescale_q(startTime, playctl_time_base_q(), stream(index).pointee.time_base)
    }

    private func validateStreams() throws(MediaError) {
        let av = tracks.filter { ($0.kind == .video && !isAttachedPicture($0.index)) || $0.kind == .audio }
        guard !av.isEmpty else {
            let kinds = tracks.map { "\($0.kind.rawValue) (\($0.codec))" }.joined(separator: ", ")
            throw MediaError(
                .noDecodableStream, url: url, operation: .probe,
                reason: tracks.isEmpty ? "the container has no streams" : "only \(kinds)")
        }
        if !av.contains(where: { $0.isDecodable }) { throw FileCheck.undecodable(self, tracks: av) }
        if let missing = FileCheck.truncationShortfall(self) {
            throw MediaError(
                .truncated, url: url, operation: .probe, code: playctl_averror_eof(),
                reason: "the index needs \(missing.needed) bytes but the file has \(missing.size)")
        }
    }

    /// Reads the next packet of any stream into `packet`. Returns false at the end of the file.
    /// - Throws: `MediaError` (`readFailed`) for an I/O error other than the end of the file.
    public func read(into packet: Packet) throws(MediaError) -> Bool {
        av_packet_unref(packet.pointer)
        var result = av_read_frame(context, packet.pointer)
        if result == playctl_averror_eof(), let segmented, segmented.continueAfterBoundary() {
            // A variant change with a header of its own: the stream goes on from the new variant's header.
            try installContext(seconds: nil)
            result = av_read_frame(context, packet.pointer)
        }
        if result == playctl_averror_eof() { return false }
        if result < 0 {
            // The source's own error (a dropped connection, say) says more than FFmpeg's code for it.
            if let error = customIO?.takeError() { throw error }
            // A damaged tail reads as invalid data; callers treat it as the end of what can be played.
            if result == playctl_averror_invaliddata() { return false }
            throw MediaError(.readFailed, url: url, operation: .read, ffmpegCode: result)
        }
        if segmented != nil { adaptSegmentedPacket(packet) }
        // The MP4 demuxer decrypts with a key; without one it hands the sample over encrypted, with the
        // encryption's parameters attached: decoding it would give noise.
        if av_packet_get_side_data(packet.pointer, AV_PKT_DATA_ENCRYPTION_INFO, nil) != nil {
            throw MediaError(
                .encrypted, url: url, operation: .read,
                reason: "stream \(packet.streamIndex) is encrypted; give its key (--decryption-key HEX)")
        }
        return true
    }

    /// Where the media times of stream `index` lie in the file's bytes, from the container's index (every sample
    /// for MP4, the cues for Matroska; empty for formats without one, such as MPEG-TS).
    public func byteTimeline(stream index: Int, totalLength: Int64?) -> ByteTimeline {
        let stream = stream(index)
        let count = Int(avformat_index_get_entries_count(stream))
        let base = stream.pointee.time_base
        let start = startTicks(stream: index)
        var points: [(offset: Int64, seconds: Double)] = []
        points.reserveCapacity(count)
        for entry in 0..<count {
            guard let item = avformat_index_get_entry(stream, Int32(entry)) else { continue }
            let ticks = item.pointee.timestamp - start
            points.append((item.pointee.pos, Double(ticks) * Double(base.num) / Double(base.den)))
        }
        return ByteTimeline(points: points, totalLength: totalLength, duration: duration?.seconds)
    }

    /// Tells the demuxer to skip every stream but `index` (their packets are not even read where the container
    /// allows it): for a demuxer that serves one decoder.
    public func discardAllStreams(except index: Int) {
        discardAllStreams(except: [index])
    }

    /// Tells the demuxer to skip every stream but those of `indices`.
    public func discardAllStreams(except indices: Set<Int>) {
        keptStreams = indices
        applyDiscard()
    }

    private func applyDiscard() {
        guard let kept = keptStreams else { return }
        for i in 0..<min(tracks.count, Int(context.pointee.nb_streams)) {
            stream(i).pointee.discard = kept.contains(i) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// Whether a timestamp seek may land well before the keyframe asked for (formats without an index that seek by
    /// bisecting timestamps, such as MPEG-TS).
    public var hasImpreciseSeeking: Bool { context.pointee.iformat.pointee.flags & AVFMT_TS_DISCONT != 0 }

    /// Moves back to the very first packet. Formats with timestamp discontinuities (MPEG-TS, MPEG-PS, raw streams)
    /// find their start only by bytes; the others by their own timestamp seek.
    public func rewind() throws(MediaError) {
        if segmented != nil { return try reopenAtSegment(seconds: 0) }
        let flags = context.pointee.iformat.pointee.flags
        var result: Int32 = -1
        if flags & AVFMT_TS_DISCONT != 0 || flags & AVFMT_NO_BYTE_SEEK == 0 && flags & AVFMT_GENERIC_INDEX != 0 {
            result = av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE)
        }
        if result < 0 { result = avformat_seek_file(context, -1, Int64.min, startTime, startTime, 0) }
        if result < 0 { result = av_seek_frame(context, -1, startTime, AVSEEK_FLAG_BACKWARD) }
        if result < 0 {
            if let error = customIO?.takeError() { throw error }
            throw MediaError(.seekFailed, url: url, operation: .seek, ffmpegCode: result)
        }
    }

    /// Moves to the keyframe at or before `timestamp` (in the stream's time base) of stream `index`.
    public func seek(stream index: Int, toKeyframeAtOrBefore timestamp: Int64) throws(MediaError) {
        if segmented != nil {
            let base = index < timeBases.count ? timeBases[index] : stream(index).pointee.time_base
            let ticks = timestamp - startTicks(stream: index)
            return try reopenAtSegment(seconds: max(Double(ticks) * Double(base.num) / Double(base.den), 0))
        }
        var result = av_seek_frame(context, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD)
        if result < 0 {
            // Before the first index entry: go to the very start instead.
            result = avformat_seek_file(context, Int32(index), Int64.min, timestamp, timestamp, 0)
        }
        if result < 0 {
            result = av_seek_frame(context, -1, startTime, AVSEEK_FLAG_BACKWARD)
        }
        if result < 0 {
            if let error = customIO?.takeError() { throw error }
            throw MediaError(.seekFailed, url: url, operation: .seek, ffmpegCode: result)
        }
    }

    /// Opens the segmented source anew at the segment that holds `seconds`: a new format context reads from that
    /// segment's first byte (after its initialization section), with the streams and timings of the one it
    /// replaces and the same stream kept. Packets then go on from the segment's first keyframe.
    private func reopenAtSegment(seconds: Double) throws(MediaError) {
        guard let segmented else { return }
        _ = try segmented.reposition(toSeconds: seconds)
        try installContext(seconds: seconds)
    }

    /// Replaces the format context with one that reads the segmented source from where it stands (a segment after
    /// a reposition, or a new variant's header after a boundary). A container without a header of its own
    /// (MPEG-TS) takes the old context's codec parameters; one with a header (fMP4) keeps its own, and a codec
    /// header that changed is handed to the decoder with the stream's next packet.
    private func installContext(seconds: Double?) throws(MediaError) {
        guard let segmented else { return }
        if timeBases.isEmpty { timeBases = (0..<tracks.count).map { stream($0).pointee.time_base } }
        let io = CustomIO(source: segmented)
        var ctx: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        ctx?.pointee.pb = io.context
        ctx?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var options: OpaquePointer? = nil
        Self.restrictProtocols(&options, customIO: true)
        let result = avformat_open_input(&ctx, url, context.pointee.iformat, &options)
        av_dict_free(&options)
        let place = seconds.map { "the segment at \($0) s" } ?? "the new variant"
        guard result >= 0, let ctx else {
            if let error = io.takeError() { throw error }
            throw MediaError(.seekFailed, url: url, operation: .seek, ffmpegCode: result)
        }
        var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
        let headerless = ctx.pointee.ctx_flags & AVFMTCTX_NOHEADER != 0
        if headerless, Self.adopt(context, into: ctx, headerless: true) {
            // Same streams, parameters known: nothing to probe.
        } else if headerless, avformat_find_stream_info(ctx, nil) < 0 {
            avformat_close_input(&owned)
            if let error = io.takeError() { throw error }
            throw MediaError(.seekFailed, url: url, operation: .seek, reason: "\(place) cannot be probed")
        }
        guard Int(ctx.pointee.nb_streams) == tracks.count else {
            avformat_close_input(&owned)
            throw MediaError(
                .seekFailed, url: url, operation: .seek,
                reason: "\(place) holds \(ctx.pointee.nb_streams) streams, the first segment \(tracks.count)")
        }
        for i in 0..<tracks.count {
            let old = stream(i).pointee.codecpar.pointee
            let new = ctx.pointee.streams[i]!.pointee.codecpar.pointee
            let oldData = old.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(old.extradata_size))) }
            let newData = new.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(new.extradata_size))) }
            if let newData, !newData.isEmpty, newData != oldData { pendingExtradata[i] = newData }
        }
        var old: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&old)
        context = ctx
        customIO = io
        applyDiscard()
    }

    /// A packet of a segmented stream: in the time base its stream was first opened with, carrying its stream's
    /// new codec header when a reopened context brought one.
    private func adaptSegmentedPacket(_ packet: Packet) {
        let index = Int(packet.pointer.pointee.stream_index)
        guard index < timeBases.count else { return }
        let now = stream(index).pointee.time_base
        let then = timeBases[index]
        if now.num != then.num || now.den != then.den { av_packet_rescale_ts(packet.pointer, now, then) }
        if let data = pendingExtradata.removeValue(forKey: index),
            let side = av_packet_new_side_data(packet.pointer, AV_PKT_DATA_NEW_EXTRADATA, data.count)
        {
            data.withUnsafeBufferPointer { side.update(from: $0.baseAddress!, count: data.count) }
        }
    }

    /// Limits what libavformat may open on its own: nothing but the custom I/O when reading a `ByteSource` (a
    /// playlist format such as HLS would otherwise fetch the URIs it names with its own HTTP, or read `file:` and
    /// `concat:` URIs a remote playlist names: CVE-2016-1897/1898); local files and their neighbours otherwise.
    static func restrictProtocols(_ options: inout OpaquePointer?, customIO: Bool) {
        av_dict_set(&options, "protocol_whitelist", customIO ? "none" : "file,crypto,data,pipe", 0)
    }
}
