import MediaIO
import Synchronization

/// A `ByteSource` that delivers the first `limit` bytes it is asked for and then fails every read, like a network
/// connection that drops: for tests of how a player reports and recovers from a source that fails mid-stream.
///
/// Counts the bytes it delivered, not file offsets: seeking back does not revive it.
public final class FailingByteSource: ByteSource, Sendable {
    private let base: any ByteSource
    private let limit: Int64
    private let failure: MediaError
    /// Bytes delivered so far (reads come from one demuxer thread, but `deliveredBytes` may be read from any).
    private let delivered = Atomic<Int64>(0)

    /// Reads `base` until `limit` bytes were delivered, then throws `failure` (a read error naming `url` by
    /// default: "connection dropped").
    public init(wrapping base: any ByteSource, url: String, failingAfter limit: Int64, failure: MediaError? = nil) {
        self.base = base
        self.limit = max(limit, 0)
        self.failure =
            failure
            ?? MediaError(.readFailed, url: url, operation: .read, reason: "connection dropped (simulated)")
    }

    /// A local file that fails after `limit` bytes. - Throws: `MediaError` when the file cannot be opened.
    public convenience init(path: String, failingAfter limit: Int64) throws(MediaError) {
        self.init(wrapping: try FileByteSource(path: path), url: path, failingAfter: limit)
    }

    /// Bytes delivered so far.
    public var deliveredBytes: Int64 { delivered.load(ordering: .acquiring) }

    public var size: Int64? { base.size }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        let allowed = Int(min(Int64(buffer.count), limit - delivered.load(ordering: .acquiring)))
        guard allowed > 0 else { throw failure }
        let n = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<allowed]))
        if n > 0 { delivered.add(Int64(n), ordering: .releasing) }
        return n
    }

    public func seek(to offset: Int64) throws(MediaError) { try base.seek(to: offset) }
}
