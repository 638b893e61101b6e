import CFFmpeg

/// One picture of a file, decoded to be shown as a still: a video's frame at a time (its first by default), or an
/// image (JPEG, PNG, WebP, GIF's first frame, whatever libavcodec decodes). An image can be decoded smaller than it
/// is, by the codec itself where it can (JPEG decodes at 1/2, 1/4 or 1/8 of its size: `lowres`), so a 4000x3000
/// photo shown at 132x132 never becomes a 48 MB bitmap.
public enum StillDecoder {
    /// Whether `demuxer` holds a still image (an image format, or a single-picture stream) rather than a video.
    public static func isImage(_ demuxer: Demuxer) -> Bool {
        let format = demuxer.formatName
        if format.hasSuffix("_pipe") || format == "image2" || format == "gif" { return true }
        guard let track = demuxer.videoTrack else { return false }
        return Self.imageCodecs.contains(track.codec)
    }

    /// Codecs of still pictures.
    static let imageCodecs: Set<String> = ["mjpeg", "png", "webp", "gif", "bmp", "tiff", "jpeg2000", "qoi"]

    /// How many halvings (0 to 3) a codec that decodes smaller may apply so the picture still covers `target`
    /// pixels once `scale` (target / source, the fit's or fill's factor) is applied: the largest n with
    /// 2^n <= 1/scale.
    public static func reduction(forScale scale: Double) -> Int {
        guard scale > 0, scale < 1 else { return 0 }
        var n = 0
        while n < 3 && Double(1 << (n + 1)) <= 1 / scale { n += 1 }
        return n
    }

    /// Decodes the picture of an image: its first frame, `reduction` halvings smaller when the codec can.
    /// - Throws: `MediaError` naming the file when it holds no picture or the picture does not decode.
    public static func decodeImage(_ demuxer: Demuxer, reduction: Int = 0) throws(MediaError) -> VideoFrame {
        guard let track = demuxer.videoTrack else {
            throw MediaError(.noDecodableStream, url: demuxer.url, operation: .probe, reason: "no picture")
        }
        guard track.isDecodable else { throw FileCheck.undecodable(demuxer, tracks: [track]) }
        let decoder = try Decoder(demuxer: demuxer, stream: track.index, threads: 1, lowres: reduction)
        let packet = Packet()
        var sent = false
        while !sent, try demuxer.read(into: packet) {
            guard packet.streamIndex == track.index else { continue }
            switch decoder.send(packet) {
            case .accepted: sent = true
            case .outputFull: sent = true
            case .rejected(let code):
                throw MediaError(.decodeFailed, url: demuxer.url, operation: .decode, ffmpegCode: code)
            }
        }
        guard sent else {
            throw MediaError(.truncated, url: demuxer.url, operation: .read, reason: "the file ends before its picture")
        }
        _ = decoder.send(nil)
        while true {
            switch try decoder.receive() {
            case .frame(let raw):
                let time = MediaTime.zero
                return VideoFrame(taking: raw, time: time, timestamp: 0, track: track)
            case .damaged(let code):
                throw MediaError(.decodeFailed, url: demuxer.url, operation: .decode, ffmpegCode: code)
            case .needsInput, .endOfStream:
                throw MediaError(
                    .decodeFailed, url: demuxer.url, operation: .decode, reason: "the picture does not decode")
            }
        }
    }

    /// Decodes a video's frame: the first (`time` nil), or the one on screen at `time` (`exact`) or the keyframe at
    /// or before it.
    /// - Throws: `MediaError` naming the file.
    public static func decodeVideoFrame(
        _ demuxer: Demuxer, at time: MediaTime?, exact: Bool
    ) throws(MediaError) -> VideoFrame {
        let reader = try VideoFrameReader(demuxer: demuxer)
        if let time {
            let landing = try reader.seek(to: time, mode: exact ? .exact : .keyframe)
            if let frame = landing.frame { return frame }
        } else if let first = reader.decodeFirstFrameAlone() {
            return first
        } else if let frame = try reader.nextFrame() {
            return frame
        }
        throw MediaError(.decodeFailed, url: demuxer.url, operation: .decode, reason: "no frame to show")
    }
}
