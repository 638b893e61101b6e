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
            throw MediaError(code == ENOENT || code == ENOTDIR ? .fileNotFound : (code == EACCES ? .permissionDenied : .other),
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
        if code == playctl_averror(ENOENT) { return MediaError(.fileNotFound, url: url, operation: .open, ffmpegCode: code) }
        if code == playctl_averror(EACCES) || code == playctl_averror(EPERM) {
            return MediaError(.permissionDenied, url: url, operation: .open, ffmpegCode: code)
        }
        if code == playctl_averror(EISDIR) { return MediaError(.isDirectory, url: url, operation: .open, ffmpegCode: code) }
        if code == playctl_averror_invaliddata(), let path = localPath(url) {
            // A container FFmpeg recognises from the first bytes but cannot open is damaged; otherwise it is not media.
            if let format = recognisedFormat(path: path) {
                var error = MediaError(.truncated, url: url, operation: .open, ffmpegCode: code)
                error.reason += " (looks like \(format))"
                return error
            }
            return MediaError(.notMedia, url: url, operation: .probe, ffmpegCode: code)
        }
        return MediaError(code == playctl_averror_invaliddata() ? .notMedia : .other, url: url, operation: .open, ffmpegCode: code)
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
            guard let format = av_probe_input_format2(&probe, 1, &score), score >= AVPROBE_SCORE_MAX / 4 else { return nil }
            let name = String(cString: format.pointee.name)
            return textOnlyFormats.contains(name) ? nil : name
        }
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
