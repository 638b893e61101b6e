import Dispatch
import Locking
import MediaCore

/// A byte source that counts the time its reader spends waiting in it (for the network, for the disk), so a
/// poster's fetch time can be told from its demux and decode time. A cancelled one fails every read.
final class TimedByteSource: ByteSource, Sendable {
    let inner: any ByteSource
    private let url: String
    private let waited = Locked<UInt64>(0)
    private let cancelled = Locked(false)

    init(_ inner: any ByteSource, url: String) {
        self.inner = inner
        self.url = url
    }

    /// Seconds spent in reads and seeks so far.
    var waitSeconds: Double { Double(waited.withLock { $0 }) / 1e9 }

    var size: Int64? { inner.size }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        try check()
        let start = DispatchTime.now().uptimeNanoseconds
        defer { waited.withLock { $0 += DispatchTime.now().uptimeNanoseconds - start } }
        let count = try inner.read(into: buffer)
        try check()
        return count
    }

    func seek(to offset: Int64) throws(MediaError) {
        try check()
        let start = DispatchTime.now().uptimeNanoseconds
        defer { waited.withLock { $0 += DispatchTime.now().uptimeNanoseconds - start } }
        try inner.seek(to: offset)
    }

    /// Stops the reader: a read blocked in the inner source returns, and every read after fails as cancelled.
    func cancel() {
        cancelled.withLock { $0 = true }
        inner.close()
    }

    func close() { inner.close() }

    private func check() throws(MediaError) {
        if cancelled.withLock({ $0 }) {
            throw MediaError(.cancelled, url: url, operation: .read, reason: "the poster is no longer wanted")
        }
    }
}
