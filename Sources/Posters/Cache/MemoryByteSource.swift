import Locking
import MediaCore

/// Bytes in memory as a `ByteSource` (a poster read back from the disk cache), or a file's first bytes as the
/// whole file (`totalLength`): reading past them is its end.
final class MemoryByteSource: ByteSource, Sendable {
    private let bytes: [UInt8]
    private let totalLength: Int64?
    private let position = Locked(0)

    init(_ bytes: [UInt8], totalLength: Int64? = nil) {
        self.bytes = bytes
        self.totalLength = totalLength
    }

    var size: Int64? { totalLength ?? Int64(bytes.count) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        position.withLock { position in
            let count = min(buffer.count, bytes.count - position)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
            }
            position += count
            return count
        }
    }

    func seek(to offset: Int64) throws(MediaError) {
        position.withLock { $0 = Int(min(max(offset, 0), Int64(bytes.count))) }
    }
}
