import CFFmpeg

extension TrackInfo {
    /// Reads what FFmpeg knows of `stream`.
    init(stream: UnsafeMutablePointer<AVStream>, index: Int) {
        let par = stream.pointee.codecpar!.pointee
        let kind: Kind
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        default: kind = .other
        }
        let tb = stream.pointee.time_base
        // A QuickTime timed metadata track (sample entry `mebx`) is a codec FFmpeg 5.1 does not name.
        let boxedMetadata = par.codec_id == AV_CODEC_ID_NONE && par.codec_tag == 0x7862_656D  // 'mebx', little-endian
        self.init(
            index: index, kind: kind, codec: boxedMetadata ? "mebx" : String(cString: avcodec_get_name(par.codec_id)),
            isDecodable: par.codec_id != AV_CODEC_ID_NONE && avcodec_find_decoder(par.codec_id) != nil,
            timeBase: (tb.num, tb.den))
        if par.bit_rate > 0 { bitRate = Int(par.bit_rate) }
        let d = stream.pointee.duration
        if d != playctl_nopts_value(), d > 0, tb.num > 0, tb.den > 0 {
            self.duration = MediaTime(value: d * Int64(tb.num), timescale: tb.den)
        }
        if kind == .video {
            width = Int(par.width)
            height = Int(par.height)
            let rate = stream.pointee.avg_frame_rate
            let guess = rate.num > 0 && rate.den > 0 ? rate : stream.pointee.r_frame_rate
            frameRate = guess.num > 0 && guess.den > 0 ? Double(guess.num) / Double(guess.den) : nil
            if let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: par.format)) {
                pixelFormat = String(cString: name)
            }
            (rotation, mirrored) = Self.displayOrientation(stream)
        }
        let tags = stream.pointee.metadata
        let language = av_dict_get(tags, "language", nil, 0).map { String(cString: $0.pointee.value) }
        self.language = language.flatMap { $0.isEmpty || $0 == "und" ? nil : $0 }
        self.title = av_dict_get(tags, "title", nil, 0).map { String(cString: $0.pointee.value) }
        isDefault = stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        isForced = stream.pointee.disposition & AV_DISPOSITION_FORCED != 0
        if kind == .subtitle, let descriptor = avcodec_descriptor_get(par.codec_id) {
            isBitmapSubtitle = descriptor.pointee.props & AV_CODEC_PROP_BITMAP_SUB != 0
        }
        if kind == .audio {
            sampleRate = Int(par.sample_rate)
            var layout = par.ch_layout
            channels = Int(layout.nb_channels)
            var buffer = [CChar](repeating: 0, count: 64)
            if av_channel_layout_describe(&layout, &buffer, buffer.count) > 0 {
                channelLayout = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }

    /// From the stream's display matrix: clockwise degrees (0, 90, 180 or 270) and whether the picture is mirrored
    /// left to right before it is turned. Read as FFmpeg's own autorotation reads it (fftools: a quarter turn, or
    /// a flip where a matrix entry is negative that the turn alone does not explain).
    private static func displayOrientation(_ stream: UnsafeMutablePointer<AVStream>) -> (Int, Bool) {
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return (0, false) }
        let matrix = data.withMemoryRebound(to: Int32.self, capacity: 9) {
            Array(UnsafeBufferPointer(start: $0, count: 9))
        }
        let angle = matrix.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress!) }
        guard angle.isFinite else { return (0, false) }
        // av_display_rotation_get is counter-clockwise; viewers turn the picture clockwise by its negation.
        let clockwise = Int((-angle).rounded())
        return DisplayOrientation.from(
            clockwise: ((clockwise % 360) + 360) % 360 / 90 * 90, a: matrix[0], c: matrix[3], d: matrix[4])
    }
}
