/// One chunk of a resource in memory: a buffer of ``ByteCache/chunkSize`` bytes (less for the last chunk) and
/// the ranges of it that hold data (two fetches may fill different parts of one chunk: the start of a file, and
/// the moov read from its end). Guarded by its cache's lock.
final class ChunkBuffer {
    /// Bytes of the resource this chunk holds when complete.
    let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    /// The valid bytes, as disjoint ranges of offsets inside the chunk, in order.
    private(set) var valid: [Range<Int>] = []

    init(capacity: Int) {
        self.capacity = capacity
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
    }

    /// A complete chunk with `bytes`.
    convenience init(complete bytes: UnsafeRawBufferPointer) {
        self.init(capacity: bytes.count)
        if let base = bytes.baseAddress { storage.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        valid = [0..<bytes.count]
    }

    deinit { storage.deallocate() }

    var isComplete: Bool { valid == [0..<capacity] }
    var isEmpty: Bool { valid.isEmpty }

    /// Whether offset `offset` holds data.
    func contains(_ offset: Int) -> Bool { valid.contains { $0.contains(offset) } }

    /// Writes `bytes` at `offset` and merges what it covers into the valid ranges.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        let count = min(bytes.count, capacity - offset)
        guard count > 0, offset >= 0, let source = bytes.baseAddress else { return }
        (storage.baseAddress! + offset).copyMemory(from: source, byteCount: count)
        var merged = offset..<offset + count
        var kept: [Range<Int>] = []
        for range in valid {
            if range.upperBound < merged.lowerBound || range.lowerBound > merged.upperBound {
                kept.append(range)
            } else {
                merged = min(range.lowerBound, merged.lowerBound)..<max(range.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        valid = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Copies up to `buffer.count` bytes from `offset` (which must hold data), up to the end of its valid range.
    /// Returns how many.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let range = valid.first(where: { $0.contains(offset) }), let target = buffer.baseAddress else { return 0 }
        let count = min(buffer.count, range.upperBound - offset)
        target.copyMemory(from: storage.baseAddress! + offset, byteCount: count)
        return count
    }

    /// The whole chunk (valid only when complete).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[0..<capacity]) }
}
