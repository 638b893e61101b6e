import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Bytes for the demuxer to read instead of a path it opens itself: for sources that throttle, pause or fail on
/// purpose (tests of stalls and faults), or that come from elsewhere than the file system.
///
/// Called on the thread that reads the demuxer; `read` may block (that is how a throttled source throttles).
public protocol ByteSource: AnyObject, Sendable {
    /// Reads up to `count` bytes into `buffer`. Returns the number read (at least 1), 0 at the end, or a negative
    /// FFmpeg error code.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int
    /// Moves to byte `offset` from the start; returns the new offset or a negative error code.
    func seek(to offset: Int64) -> Int64
    /// Total size in bytes, or -1 if unknown.
    var size: Int64 { get }
}

/// A plain local file as a `ByteSource`. Owns its `FILE*`, closed in `deinit`.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>
    public let size: Int64
    public let path: String

    /// Opens `path` for reading. - Throws: `MediaError` (missing, unreadable, directory, empty).
    public init(path: String) throws(MediaError) {
        try FileCheck.preflight(path)
        guard let file = fopen(path, "rb") else {
            throw MediaError(.permissionDenied, url: path, operation: .open, ffmpegCode: playctl_averror(errno))
        }
        self.file = file
        self.path = path
        fseeko(file, 0, SEEK_END)
        size = Int64(ftello(file))
        fseeko(file, 0, SEEK_SET)
    }

    deinit { fclose(file) }

    public func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = fread(buffer, 1, count, file)
        if n == 0 && ferror(file) != 0 { return Int(playctl_averror(EIO)) }
        return n
    }

    public func seek(to offset: Int64) -> Int64 {
        fseeko(file, off_t(offset), SEEK_SET) == 0 ? offset : Int64(playctl_averror(EINVAL))
    }
}

/// The `AVIOContext` that lets libavformat read a `ByteSource`. Owns the context and its buffer.
final class CustomIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let box: Unmanaged<SourceBox>

    final class SourceBox {
        let source: any ByteSource
        init(_ source: any ByteSource) { self.source = source }
    }

    init(source: any ByteSource) {
        let size = 1 << 16
        guard let buffer = av_malloc(size)?.assumingMemoryBound(to: UInt8.self) else { fatalError("av_malloc: out of memory") }
        box = Unmanaged.passRetained(SourceBox(source))
        guard let context = avio_alloc_context(buffer, Int32(size), 0, box.toOpaque(), customRead, nil, customSeek) else {
            fatalError("avio_alloc_context: out of memory")
        }
        self.context = context
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVIOContext>? = context
        av_freep(&context.pointee.buffer)
        avio_context_free(&ctx)
        box.release()
    }
}

private func customRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
    guard let opaque, let buffer else { return playctl_averror(EINVAL) }
    let source = Unmanaged<CustomIO.SourceBox>.fromOpaque(opaque).takeUnretainedValue().source
    let n = source.read(into: buffer, count: Int(size))
    return n == 0 ? playctl_averror_eof() : Int32(clamping: n)
}

private func customSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return Int64(playctl_averror(EINVAL)) }
    let source = Unmanaged<CustomIO.SourceBox>.fromOpaque(opaque).takeUnretainedValue().source
    if whence & AVSEEK_SIZE != 0 { return source.size }
    switch whence & ~AVSEEK_FORCE {
    case SEEK_SET: return source.seek(to: offset)
    case SEEK_END where source.size >= 0: return source.seek(to: source.size + offset)
    default: return Int64(playctl_averror(EINVAL))
    }
}
