/// What a ``DiskTier`` holds, as a value its lock guards: the chunks stored (size, last use), the resources'
/// folders and heads, the chunks queued for writing, and the bytes counted against the limit.
struct DiskIndex {
    struct Folder {
        var headBytes: Int
        var chunks: Int
        var head: DiskTier.StoredHead
    }

    var entries: [MemoryTier.Key: (bytes: Int, stamp: UInt64)] = [:]
    var byResource: [String: Set<MemoryTier.Key>] = [:]
    var folders: [String: Folder] = [:]
    /// Chunks queued for writing, readable until written.
    var pending: [MemoryTier.Key: [UInt8]] = [:]
    /// Bytes of the files, and of the file being written (room is made for it first).
    var used = 0
    /// Chunks damaged or cut short found so far (each was deleted and will be fetched again).
    var corruptChunks = 0
    private var clock: UInt64 = 0
    /// Bumped when a resource is forgotten: a write queued before is not indexed.
    private var generations: [String: UInt64] = [:]

    func generation(of url: String) -> UInt64 { generations[url] ?? 0 }

    /// Records a use of a stored chunk (added with `bytes` if new).
    mutating func touch(_ key: MemoryTier.Key, bytes: Int) {
        clock += 1
        if let old = entries[key] {
            used -= old.bytes
        } else {
            folders[key.resource]?.chunks += 1
            byResource[key.resource, default: []].insert(key)
        }
        entries[key] = (bytes, clock)
        used += bytes
    }

    /// Drops a chunk; true when its resource has no chunk left (its folder is dropped too).
    @discardableResult
    mutating func drop(_ key: MemoryTier.Key) -> Bool {
        guard let old = entries.removeValue(forKey: key) else { return false }
        used -= old.bytes
        byResource[key.resource]?.remove(key)
        folders[key.resource]?.chunks -= 1
        guard folders[key.resource]?.chunks == 0 else { return false }
        removeFolder(key.resource)
        return true
    }

    mutating func removeFolder(_ url: String) {
        if let folder = folders.removeValue(forKey: url) { used -= folder.headBytes }
        byResource[url] = nil
    }

    /// Forgets every chunk, queued write and the head of `url`.
    mutating func forget(_ url: String) {
        for key in byResource[url] ?? [] {
            if let entry = entries.removeValue(forKey: key) { used -= entry.bytes }
        }
        removeFolder(url)
        for key in pending.keys where key.resource == url { pending.removeValue(forKey: key) }
        generations[url, default: 0] &+= 1
    }

    /// Drops least recently used chunks (and the folders of resources left without any) until `extra` more bytes
    /// fit within `limit`; what to delete, in order.
    mutating func trim(toFit extra: Int, limit: Int) -> [DiskDeletion] {
        guard used + extra > limit else { return [] }
        var out: [DiskDeletion] = []
        for (key, _) in entries.sorted(by: { $0.value.stamp < $1.value.stamp }) where used + extra > limit {
            let emptied = drop(key)
            out.append(.chunk(key))
            if emptied { out.append(.folder(key.resource)) }
        }
        return out
    }
}

/// A file of the tier the index no longer lists.
enum DiskDeletion {
    case chunk(MemoryTier.Key)
    case folder(String)
}
