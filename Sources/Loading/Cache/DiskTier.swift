import Foundation

/// Complete chunks kept on disk, least recently used first out, within a byte limit.
///
/// Layout: `<directory>/<resource hash>/head` (the URL and what the server said of it, JSON) and
/// `<directory>/<resource hash>/<index>.chunk` (a 16-byte header: "PCK1", the payload's length, its CRC-32 and
/// the chunk's index, then the payload). A chunk is written to a temporary file and renamed, so a crash leaves no
/// half entry; a chunk whose header, length, checksum or index is wrong (damaged, cut short, another chunk's file)
/// is deleted when read and fetched again.
///
/// The limit bounds every file of the tier, heads included: a resource's head is written with its first chunk and
/// deleted with its last (so folders cannot pile up, one per URL ever seen), and room for a file is made before it
/// is written, so the directory never holds more than the limit, not even while a file is being written.
///
/// Files are written and deleted on a writer thread of the tier's own, never under the cache's lock: the cache
/// queues a complete chunk (a copy of its bytes) and goes on. The queue is bounded in bytes
/// (``ByteCache/Configuration/diskQueueLimit``): a delivery waits for room before it takes the cache's lock
/// (``waitForRoom(_:)``), and a chunk that still does not fit is not stored (it stays in memory while the memory
/// tier keeps it; ``ByteCache/Statistics/diskWritesDropped`` counts them). A queued chunk is read from
/// the queue. Reads of files happen on the reader's thread, outside the cache's lock. The index (what is stored,
/// the heads, the counts) is guarded by the tier's own lock, held only for bookkeeping, never for a file.
/// Queued writes are finished by ``flush()``, when the cache goes away, and at the process's exit.
final class DiskTier: @unchecked Sendable {
    struct StoredHead: Codable, Equatable {
        var url: String
        var totalLength: Int64?
        var etag: String?
        var lastModified: String?
        var acceptsRanges: Bool
        /// What the response said of reuse; absent from the heads of earlier versions (read as nil: reused while
        /// held, as then).
        var caching: CacheDirectives? = nil
    }

    /// What the writer thread does, in order.
    enum Job {
        case chunk(MemoryTier.Key, [UInt8], head: StoredHead, generation: UInt64)
        case head(StoredHead)
        /// Deletes files the index no longer lists (a resource's folder, or one chunk).
        case delete(path: String)
    }

    let directory: String
    let limit: Int
    let queueLimit: Int
    let condition = NSCondition()
    /// Guarded by `condition`.
    var index = DiskIndex()
    var queue: [Job] = []
    var queuedBytes = 0
    private var peakQueued = 0
    /// Whether the writer is performing a job taken off the queue.
    var writing = false
    private var closing = false
    private var writer: Thread?
    var isClosing: Bool { closing }
    /// Locked: the writer thread ended.
    func writerStopped() { writer = nil }

    static let magic: [UInt8] = Array("PCK1".utf8)
    static let headerSize = 16

    /// Opens (or makes) `directory`, indexing what it holds, trims it to `limit` bytes, and starts its writer.
    init(directory: String, limit: Int, queueLimit: Int) throws(MediaError) {
        self.directory = directory
        self.limit = max(limit, 0)
        self.queueLimit = max(queueLimit, 0)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MediaError(
                .permissionDenied, url: directory, operation: .write,
                reason: "cannot make the cache directory: \(error.localizedDescription)")
        }
        scan()
        for path in trim(toFit: 0) { try? FileManager.default.removeItem(atPath: path) }
        let thread = Thread { [self] in runWriter() }
        thread.name = "playctl disk cache"
        writer = thread
        thread.start()
        DiskTierExit.register(self)
    }

    /// The folder of `url`'s entry.
    static func key(_ url: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }

    func folder(_ url: String) -> String { directory + "/" + Self.key(url) }
    func chunkPath(_ key: MemoryTier.Key) -> String {
        directory + "/" + Self.key(key.resource) + "/\(key.index).chunk"
    }

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: The index (any thread; the cache asks under its lock)

    /// Bytes of the tier's files (chunks and heads), and of the files being written.
    var used: Int { locked { index.used } }
    var corruptChunks: Int { locked { index.corruptChunks } }
    /// The most bytes the write queue held.
    var peakQueuedBytes: Int { locked { peakQueued } }

    /// What the disk remembers of `url`'s head.
    func head(of url: String) -> StoredHead? { locked { index.folders[url]?.head } }

    /// Whether chunk `key` is stored or queued.
    func contains(_ key: MemoryTier.Key) -> Bool { locked { index.entries[key] != nil || index.pending[key] != nil } }

    /// The chunks of `url` stored or queued, with their payload bytes.
    func payloads(of url: String) -> [(index: Int, bytes: Int)] {
        locked {
            var out: [Int: Int] = [:]
            for key in index.byResource[url] ?? [] {
                if let entry = index.entries[key] { out[key.index] = max(entry.bytes - Self.headerSize, 0) }
            }
            for (key, bytes) in index.pending where key.resource == url { out[key.index] = bytes.count }
            return out.map { ($0.key, $0.value) }
        }
    }

    // MARK: Queueing (any thread; the cache queues under its lock: no file is touched here)

    /// Queues a complete chunk of the resource `head` describes (and the head with its first chunk); false when
    /// the queue has no room for it (it is not stored).
    func enqueue(_ key: MemoryTier.Key, _ chunk: ChunkBuffer, head: StoredHead) -> Bool {
        guard chunk.isComplete else { return true }
        return locked {
            guard index.pending[key] == nil else { return true }
            guard queuedBytes + chunk.capacity <= queueLimit else { return false }
            let bytes = [UInt8](chunk.bytes)
            index.pending[key] = bytes
            queue.append(.chunk(key, bytes, head: head, generation: index.generation(of: key.resource)))
            queuedBytes += bytes.count
            peakQueued = max(peakQueued, queuedBytes)
            condition.broadcast()
            return true
        }
    }

    /// Queues a rewrite of the head of a resource that has chunks on disk or queued (one without has no entry: its
    /// head is written with its first chunk).
    func enqueueHead(_ head: StoredHead) {
        locked {
            guard index.folders[head.url] != nil || index.pending.keys.contains(where: { $0.resource == head.url })
            else { return }
            index.folders[head.url]?.head = head
            queue.append(.head(head))
            condition.broadcast()
        }
    }

    /// Forgets everything of `url` at once (the resource changed on the server); its files are deleted in turn.
    func remove(_ url: String) {
        locked {
            index.forget(url)
            let dropped = queue.filter { if case .chunk(let key, _, _, _) = $0 { key.resource == url } else { false } }
            for case .chunk(_, let bytes, _, _) in dropped { queuedBytes -= bytes.count }
            queue.removeAll { if case .chunk(let key, _, _, _) = $0 { key.resource == url } else { false } }
            queue.append(.delete(path: folder(url)))
            condition.broadcast()
        }
    }

    /// Waits, on a transport's thread and outside the cache's lock, until the queue has room for `bytes` more: a
    /// link faster than the disk is slowed to it rather than losing what it brought (Media3's cache writes on the
    /// loader's thread the same way). A queue smaller than `bytes` never has room: no wait.
    func waitForRoom(_ bytes: Int) {
        condition.lock()
        while queuedBytes > 0 && queuedBytes + bytes > queueLimit && !closing { condition.wait() }
        condition.unlock()
    }

    /// Waits until every queued write is on disk.
    func flush() {
        condition.lock()
        while !queue.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    /// Finishes the queued writes and stops the writer thread.
    func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        while writer != nil { condition.wait() }
        condition.unlock()
    }

    // MARK: Reading (a reader's thread, outside the cache's lock)

    /// The chunk, if stored (or queued) and intact: a damaged one is counted, dropped from the index and deleted.
    func load(_ key: MemoryTier.Key) -> ChunkBuffer? {
        // Queued (read from the queue), stored (read from its file below), or neither.
        let (queued, stored): ([UInt8]?, Bool) = locked { (index.pending[key], index.entries[key] != nil) }
        if let queued { return queued.withUnsafeBytes { ChunkBuffer(complete: $0) } }
        guard stored else { return nil }
        let data = FileManager.default.contents(atPath: chunkPath(key))
        let chunk = data.flatMap { Self.decode($0, index: key.index) }
        return locked {
            // Gone from the index meanwhile (trimmed, or its resource removed): not damage.
            guard index.entries[key] != nil else { return chunk }
            guard let chunk else {
                index.corruptChunks += 1
                let emptied = index.drop(key)
                queue.append(.delete(path: chunkPath(key)))
                if emptied { queue.append(.delete(path: folder(key.resource))) }
                condition.broadcast()
                return nil
            }
            index.touch(key, bytes: index.entries[key]!.bytes)
            return chunk
        }
    }
}
