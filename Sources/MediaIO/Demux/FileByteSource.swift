import CFFmpeg

#if canImport(Glibc)
import Glibc
#endif

/// A plain local file as a `ByteSource`. Owns its `FILE*`, closed in `deinit`.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    private let file: UnsafeMutablePointer<FILE>
    public let size: Int64?
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

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let n = fread(base, 1, buffer.count, file)
        if n == 0 && ferror(file) != 0 {
            throw MediaError(.readFailed, url: path, operation: .read, ffmpegCode: playctl_averror(EIO))
        }
        return n
    }

    public func seek(to offset: Int64) throws(MediaError) {
        guard fseeko(file, off_t(offset), SEEK_SET) == 0 else {
            throw MediaError(.seekFailed, url: path, operation: .seek, ffmpegCode: playctl_averror(EINVAL))
        }
    }
}
