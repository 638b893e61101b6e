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
/// Guarded by its cache's lock.
final class DiskTier {
    struct StoredHead: Codable, Equatable {
        var url: String
        var totalLength: Int64?
        var etag: String?
        var lastModified: String?
        var acceptsRanges: Bool
    }

    let directory: String
    let limit: Int
    /// Bytes of the tier's files: chunk files and heads.
    private(set) var used = 0
    /// Chunks damaged or cut short found so far (each was deleted and will be fetched again).
    private(set) var corruptChunks = 0
    private var entries: [MemoryTier.Key: (bytes: Int, stamp: UInt64)] = [:]
    /// The resources with chunks on disk: the size of their head file and how many chunks they have.
    private var folders: [String: (headBytes: Int, chunks: Int)] = [:]
    private var clock: UInt64 = 0
    private static let magic: [UInt8] = Array("PCK1".utf8)
    private static let headerSize = 16

    /// Opens (or makes) `directory`, indexing what it holds, and trims it to `limit` bytes.
    init(directory: String, limit: Int) throws(MediaError) {
        self.directory = directory
        self.limit = max(limit, 0)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MediaError(
                .permissionDenied, url: directory, operation: .write,
                reason: "cannot make the cache directory: \(error.localizedDescription)")
        }
        index()
        trim()
    }

    /// The folder of `url`'s entry.
    static func key(_ url: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }

    private func folder(_ url: String) -> String { directory + "/" + Self.key(url) }
    private func chunkPath(_ key: MemoryTier.Key) -> String {
        directory + "/" + Self.key(key.resource) + "/\(key.index).chunk"
    }

    // MARK: Heads

    func loadHead(_ url: String) -> StoredHead? {
        guard let data = FileManager.default.contents(atPath: folder(url) + "/head"),
            let head = try? JSONDecoder().decode(StoredHead.self, from: data), head.url == url
        else { return nil }
        return head
    }

    /// Rewrites the head of a resource that has chunks on disk (one without has no entry: its head is written
    /// with its first chunk).
    func storeHead(_ head: StoredHead) {
        guard folders[head.url] != nil, let data = try? JSONEncoder().encode(head) else { return }
        trim(toFit: data.count)
        guard let folder = folders[head.url], atomicWrite(data, to: self.folder(head.url) + "/head") else { return }
        used += data.count - folder.headBytes
        folders[head.url] = (data.count, folder.chunks)
    }

    /// Forgets everything of `url` (the resource changed on the server).
    func remove(_ url: String) {
        for (entry, value) in entries where entry.resource == url {
            entries.removeValue(forKey: entry)
            used -= value.bytes
        }
        if let folder = folders.removeValue(forKey: url) { used -= folder.headBytes }
        try? FileManager.default.removeItem(atPath: folder(url))
    }

    // MARK: Chunks

    func contains(_ key: MemoryTier.Key) -> Bool { entries[key] != nil }

    /// The chunk indices stored for `url`.
    func indices(of url: String) -> [Int] { entries.keys.filter { $0.resource == url }.map(\.index) }

    /// The payload size of a stored chunk (its file size less the header).
    func payloadBytes(_ key: MemoryTier.Key) -> Int { max((entries[key]?.bytes ?? 0) - Self.headerSize, 0) }

    /// The chunk, if stored and intact (a damaged one is deleted).
    func load(_ key: MemoryTier.Key) -> ChunkBuffer? {
        guard entries[key] != nil else { return nil }
        let path = chunkPath(key)
        guard let data = FileManager.default.contents(atPath: path), let chunk = Self.decode(data, index: key.index)
        else {
            corruptChunks += 1
            drop(key)
            return nil
        }
        touch(key, bytes: data.count)
        return chunk
    }

    /// Stores a complete chunk of the resource `head` describes (and the head with its first chunk), after making
    /// room for them.
    func store(_ key: MemoryTier.Key, _ chunk: ChunkBuffer, head: StoredHead) {
        guard chunk.isComplete, let headData = try? JSONEncoder().encode(head) else { return }
        let size = Self.headerSize + chunk.capacity
        // Room for the chunk and its head (whether or not trimming keeps the resource's folder).
        guard size + headData.count <= limit else { return }
        trim(toFit: size + headData.count)
        var data = Data(capacity: size)
        data.append(contentsOf: Self.magic)
        Self.append(UInt32(chunk.capacity), to: &data)
        Self.append(CRC32.checksum(chunk.bytes), to: &data)
        Self.append(UInt32(key.index), to: &data)
        data.append(contentsOf: chunk.bytes)
        if folders[key.resource] == nil {
            try? FileManager.default.createDirectory(atPath: folder(key.resource), withIntermediateDirectories: true)
            guard atomicWrite(headData, to: folder(key.resource) + "/head") else { return }
            folders[key.resource] = (headData.count, 0)
            used += headData.count
        }
        guard atomicWrite(data, to: chunkPath(key)) else {
            if folders[key.resource]?.chunks == 0 { removeFolder(key.resource) }
            return
        }
        touch(key, bytes: data.count)
    }

    private func touch(_ key: MemoryTier.Key, bytes: Int) {
        clock += 1
        if let old = entries[key] {
            used -= old.bytes
        } else {
            folders[key.resource]?.chunks += 1
        }
        entries[key] = (bytes, clock)
        used += bytes
    }

    private func drop(_ key: MemoryTier.Key) {
        guard let old = entries.removeValue(forKey: key) else { return }
        used -= old.bytes
        try? FileManager.default.removeItem(atPath: chunkPath(key))
        folders[key.resource]?.chunks -= 1
        if folders[key.resource]?.chunks == 0 { removeFolder(key.resource) }
    }

    /// Deletes the folder of a resource without chunks left (its head).
    private func removeFolder(_ url: String) {
        if let folder = folders.removeValue(forKey: url) { used -= folder.headBytes }
        try? FileManager.default.removeItem(atPath: folder(url))
    }

    /// Drops least recently used chunks (and the heads of resources left without any) until `extra` more bytes
    /// fit within the limit.
    private func trim(toFit extra: Int = 0) {
        guard used + extra > limit else { return }
        for (key, _) in entries.sorted(by: { $0.value.stamp < $1.value.stamp }) where used + extra > limit {
            drop(key)
        }
    }

    /// The chunk a file holds, if it is intact and is chunk `index`. The index is checked too: another chunk's
    /// intact file in its place (a misplaced copy or rename) passes every other check and would play wrong bytes.
    private static func decode(_ data: Data, index: Int) -> ChunkBuffer? {
        guard data.count >= headerSize, Array(data.prefix(4)) == magic else { return nil }
        let length = Int(read32(data, at: 4))
        let checksum = read32(data, at: 8)
        guard data.count == headerSize + length, read32(data, at: 12) == UInt32(truncatingIfNeeded: index) else {
            return nil
        }
        return data.withUnsafeBytes { raw -> ChunkBuffer? in
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
            guard CRC32.checksum(payload) == checksum else { return nil }
            return ChunkBuffer(complete: payload)
        }
    }

    private static func append(_ value: UInt32, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func read32(_ data: Data, at offset: Int) -> UInt32 {
        data.withUnsafeBytes { raw in
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[offset..<offset + 4]))
            }
            return UInt32(littleEndian: value)
        }
    }

    /// Writes `data` to a temporary file renamed to `path`; false (and nothing left) when it cannot.
    private func atomicWrite(_ data: Data, to path: String) -> Bool {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return false }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Builds the index from the files present (their modification times order the LRU); folders of its own
    /// without a valid head or without chunks are deleted.
    private func index() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var found: [(MemoryTier.Key, Int, Date)] = []
        for name in names {
            // Only folders named as this tier names them (a URL's hash in hex) are its own: anything else in the
            // directory (another program's files, a poster cache) is left alone.
            guard !name.isEmpty, name.count <= 16, name.allSatisfy(\.isHexDigit) else { continue }
            let path = directory + "/" + name
            guard let data = fm.contents(atPath: path + "/head"),
                let head = try? JSONDecoder().decode(StoredHead.self, from: data),
                Self.key(head.url) == name
            else {
                try? fm.removeItem(atPath: path)
                continue
            }
            var chunks: [(MemoryTier.Key, Int, Date)] = []
            for file in (try? fm.contentsOfDirectory(atPath: path)) ?? [] {
                if file.hasSuffix(".tmp") {
                    try? fm.removeItem(atPath: path + "/" + file)
                    continue
                }
                guard file.hasSuffix(".chunk"), let index = Int(file.dropLast(6)),
                    let attributes = try? fm.attributesOfItem(atPath: path + "/" + file),
                    let size = attributes[.size] as? Int
                else { continue }
                chunks.append(
                    (
                        MemoryTier.Key(resource: head.url, index: index), size,
                        attributes[.modificationDate] as? Date ?? .distantPast
                    ))
            }
            guard !chunks.isEmpty else {
                try? fm.removeItem(atPath: path)
                continue
            }
            folders[head.url] = (data.count, 0)
            used += data.count
            found += chunks
        }
        for (key, size, _) in found.sorted(by: { $0.2 < $1.2 }) { touch(key, bytes: size) }
    }
}
