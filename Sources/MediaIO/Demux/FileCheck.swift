import CFFmpeg

#if canImport(Glibc)
import Glibc
#endif

/// Tells apart the ways a local file can fail to be media, before and after FFmpeg has tried to open it.
enum FileCheck {
    /// Demuxers that accept any text: a `.txt` file opens as ANSI art. For a media engine that is not media.
    static let textOnlyFormats: Set<String> = ["tty"]

    /// Whether `url` names a local file (a plain path or a `file:` URL) rather than a network or device URL.
    static func localPath(_ url: String) -> String? {
        if url.hasPrefix("file:") { return String(url.dropFirst(5)) }
        if url.contains("://") { return nil }
        return url
    }

    /// Checks a local path for what FFmpeg reports vaguely or not at all: missing, directory, unreadable, empty.
    static func preflight(_ url: String) throws(MediaError) {
        guard let path = localPath(url) else { return }
        if path.isEmpty {
            throw MediaError(.invalidArgument, url: url, operation: .open, reason: "empty path")
        }
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            throw MediaError(
                code == ENOENT || code == ENOTDIR ? .fileNotFound : (code == EACCES ? .permissionDenied : .other),
                url: url, operation: .open, ffmpegCode: playctl_averror(code))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw MediaError(.isDirectory, url: url, operation: .open, ffmpegCode: playctl_averror(EISDIR))
        }
        if access(path, R_OK) != 0 {
            throw MediaError(.permissionDenied, url: url, operation: .open, ffmpegCode: playctl_averror(EACCES))
        }
        if (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 {
            throw MediaError(.emptyFile, url: url, operation: .open, reason: "0 bytes")
        }
    }

    /// Turns `avformat_open_input`'s failure into the error a user can act on.
    static func classifyOpenFailure(url: String, code: Int32) -> MediaError {
        if code == playctl_averror(ENOENT) {
            return MediaError(.fileNotFound, url: url, operation: .open, ffmpegCode: code)
        }
        if code == playctl_averror(EACCES) || code == playctl_averror(EPERM) {
            return MediaError(.permissionDenied, url: url, operation: .open, ffmpegCode: code)
        }
        if code == playctl_averror(EISDIR) {
            return MediaError(.isDirectory, url: url, operation: .open, ffmpegCode: code)
        }
        // The file ended before the container's header did: cut short (or a size field points past the end).
        if code == playctl_averror_eof() {
            var error = MediaError(.truncated, url: url, operation: .open, ffmpegCode: code)
            if let path = localPath(url), let format = recognisedFormat(path: path) {
                error.reason += " (looks like \(format))"
            }
            return error
        }
        // Demuxers that give up on the bytes say invalid data, some EINVAL (mp3: a frame size it cannot seek past) or
        // EIO (matroska: an element larger than its parent). The file exists and is readable (preflight): the
        // content is at fault.
        let contentCodes = [playctl_averror_invaliddata(), playctl_averror(EINVAL), playctl_averror(EIO)]
        if contentCodes.contains(code), let path = localPath(url) {
            // A container FFmpeg recognises from the first bytes but cannot open is damaged; otherwise it is not media.
            if let format = recognisedFormat(path: path) {
                var error = MediaError(.truncated, url: url, operation: .open, ffmpegCode: code)
                error.reason += " (looks like \(format))"
                return error
            }
            return MediaError(.notMedia, url: url, operation: .probe, ffmpegCode: code)
        }
        return MediaError(
            code == playctl_averror_invaliddata() ? .notMedia : .other, url: url, operation: .open, ffmpegCode: code)
    }

    /// The format FFmpeg's probe names for the file's first bytes with real confidence, if any.
    static func recognisedFormat(path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let size = 1 << 16
        var buffer = [UInt8](repeating: 0, count: size + Int(AVPROBE_PADDING_SIZE))
        let count = fread(&buffer, 1, size, file)
        guard count > 0 else { return nil }
        return buffer.withUnsafeMutableBytes { raw -> String? in
            var probe = AVProbeData()
            probe.buf = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            probe.buf_size = Int32(count)
            probe.filename = nil
            var score: Int32 = 0
            guard let format = av_probe_input_format2(&probe, 1, &score), score >= AVPROBE_SCORE_MAX / 4 else {
                return nil
            }
            let name = String(cString: format.pointee.name)
            return textOnlyFormats.contains(name) ? nil : name
        }
    }

    /// Why none of `tracks` (audio and video tracks of `demuxer`) can be decoded. A track with neither a codec nor a
    /// codec tag never had its description read (an MP4 sample description cut off or damaged): the file is
    /// damaged. Otherwise the codec is one this FFmpeg cannot decode, named by its tag when FFmpeg does not know it.
    static func undecodable(_ demuxer: Demuxer, tracks: [TrackInfo]) -> MediaError {
        let descriptions = tracks.map { track -> (TrackInfo, String?) in (track, codecTag(demuxer, track.index)) }
        if descriptions.allSatisfy({ $0.0.codec == "none" && $0.1 == nil }) {
            let kinds = tracks.map(\.kind.rawValue).joined(separator: " and ")
            return MediaError(
                .truncated, url: demuxer.url, operation: .probe, code: playctl_averror_invaliddata(),
                reason: "the \(kinds) stream has no codec description (the index is cut or damaged)")
        }
        let codecs = descriptions.map { track, tag in
            "\(track.kind.rawValue) codec \(track.codec == "none" ? tag ?? "none" : track.codec)"
        }.joined(separator: ", ")
        let code = playctl_averror_decoder_not_found()
        return MediaError(
            .unsupportedCodec, url: demuxer.url, operation: .openDecoder, code: code,
            reason: "no decoder for \(codecs) in this FFmpeg (\(MediaError.ffmpegMessage(code)))")
    }

    /// The stream's codec tag as its four characters (`'qqv1'`), or in hex when they are not printable; nil for 0.
    static func codecTag(_ demuxer: Demuxer, _ index: Int) -> String? {
        let tag = demuxer.stream(index).pointee.codecpar.pointee.codec_tag
        guard tag != 0 else { return nil }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> ($0 * 8)) }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "0x" + String(tag, radix: 16) }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    /// For containers with a sample index (MP4, MOV, ...): the bytes the index points past the end of the file.
    static func truncationShortfall(_ demuxer: Demuxer) -> (needed: Int64, size: Int64)? {
        guard let pb = demuxer.context.pointee.pb else { return nil }
        let size = avio_size(pb)
        guard size > 0 else { return nil }
        var needed: Int64 = 0
        for track in demuxer.tracks where track.kind == .video || track.kind == .audio {
            let stream = demuxer.stream(track.index)
            let count = avformat_index_get_entries_count(stream)
            guard count > 0, let last = avformat_index_get_entry(stream, count - 1) else { continue }
            needed = max(needed, last.pointee.pos + Int64(last.pointee.size))
        }
        return needed > size ? (needed, size) : nil
    }
}
