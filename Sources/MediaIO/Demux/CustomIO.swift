import CFFmpeg

#if canImport(Glibc)
import Glibc
#endif

/// The `AVIOContext` that lets libavformat read a `ByteSource`. Owns the context and its buffer.
///
/// libavformat sees only an error code when a read fails; the source's own `MediaError` (which names the URL and
/// says what went wrong: a dropped connection, an HTTP status) is kept here, and the demuxer throws it instead of
/// the code (``takeError()``).
final class CustomIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let box: Unmanaged<SourceBox>

    final class SourceBox {
        let source: any ByteSource
        /// The last error the source threw (only the reading thread touches it).
        var error: MediaError?
        init(_ source: any ByteSource) { self.source = source }
    }

    init(source: any ByteSource) {
        let size = 1 << 16
        guard let buffer = av_malloc(size)?.assumingMemoryBound(to: UInt8.self) else {
            fatalError("av_malloc: out of memory")
        }
        box = Unmanaged.passRetained(SourceBox(source))
        guard let context = avio_alloc_context(buffer, Int32(size), 0, box.toOpaque(), customRead, nil, customSeek)
        else {
            fatalError("avio_alloc_context: out of memory")
        }
        // A segmented stream (HLS, DASH) is read straight through: its demuxer must not walk the rest of the
        // presentation looking for an index (an fMP4 demuxer on a seekable input reads every fragment's header
        // before the first packet); its seeks reopen it at a segment instead.
        if source is any SegmentedByteSource { context.pointee.seekable = 0 }
        self.context = context
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVIOContext>? = context
        av_freep(&context.pointee.buffer)
        avio_context_free(&ctx)
        box.release()
    }

    /// The error the source threw since the last call, if any (cleared).
    func takeError() -> MediaError? {
        let box = box.takeUnretainedValue()
        defer { box.error = nil }
        return box.error
    }
}

private func customRead(
    _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32
) -> Int32 {
    guard let opaque, let buffer else { return playctl_averror(EINVAL) }
    let box = Unmanaged<CustomIO.SourceBox>.fromOpaque(opaque).takeUnretainedValue()
    do throws(MediaError) {
        let n = try box.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
        return n == 0 ? playctl_averror_eof() : Int32(clamping: n)
    } catch {
        box.error = error
        return error.code < 0 ? error.code : playctl_averror(EIO)
    }
}

private func customSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(playctl_averror(EINVAL)) }
    let box = Unmanaged<CustomIO.SourceBox>.fromOpaque(opaque).takeUnretainedValue()
    let source = box.source
    if whence & AVSEEK_SIZE != 0 { return source.size ?? Int64(playctl_averror(ENOSYS)) }
    let target: Int64
    switch whence & ~AVSEEK_FORCE {
    case SEEK_SET: target = offset
    case SEEK_END:
        guard let size = source.size else { return Int64(playctl_averror(EINVAL)) }
        target = size + offset
    default: return Int64(playctl_averror(EINVAL))
    }
    do throws(MediaError) {
        try source.seek(to: target)
        return target
    } catch {
        box.error = error
        return Int64(error.code < 0 ? error.code : playctl_averror(EIO))
    }
}
