import CFFmpeg
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `ByteSource` that delivers the first `limit` bytes it is asked for and then fails every read, like a network
/// connection that drops: for tests of how a player reports and recovers from a source that fails mid-stream.
///
/// Counts the bytes it delivered, not file offsets: seeking back does not revive it.
public final class FailingByteSource: ByteSource, Sendable {
    private let base: any ByteSource
    private let limit: Int64
    private let code: Int32
    /// Bytes delivered so far (reads come from one demuxer thread, but `deliveredBytes` may be read from any).
    private let delivered = Atomic<Int64>(0)

    /// Reads `base` until `limit` bytes were delivered, then fails with FFmpeg error `code` (EIO by default).
    public init(wrapping base: any ByteSource, failingAfter limit: Int64, code: Int32 = playctl_averror(EIO)) {
        self.base = base
        self.limit = max(limit, 0)
        self.code = code
    }

    /// A local file that fails after `limit` bytes. - Throws: `MediaError` when the file cannot be opened.
    public convenience init(path: String, failingAfter limit: Int64) throws(MediaError) {
        self.init(wrapping: try FileByteSource(path: path), failingAfter: limit)
    }

    /// Bytes delivered so far.
    public var deliveredBytes: Int64 { delivered.load(ordering: .acquiring) }

    public var size: Int64 { base.size }

    public func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let allowed = Int(min(Int64(count), limit - delivered.load(ordering: .acquiring)))
        guard allowed > 0 else { return Int(code) }
        let n = base.read(into: buffer, count: allowed)
        if n > 0 { delivered.add(Int64(n), ordering: .releasing) }
        return n
    }

    public func seek(to offset: Int64) -> Int64 { base.seek(to: offset) }
}
