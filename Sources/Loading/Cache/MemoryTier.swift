/// Which chunks are held in memory, least recently used first out, within a byte limit. A value; the cache
/// holds the buffers and asks this which to drop.
struct MemoryTier {
    struct Key: Hashable {
        let resource: String
        let index: Int
    }

    let limit: Int
    private(set) var used = 0
    private var entries: [Key: (bytes: Int, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(limit: Int) { self.limit = max(limit, 0) }

    var count: Int { entries.count }

    /// Records a use of `key` (added with `bytes` if new).
    mutating func touch(_ key: Key, bytes: Int) {
        clock += 1
        if let old = entries[key] { used -= old.bytes }
        entries[key] = (bytes, clock)
        used += bytes
    }

    mutating func remove(_ key: Key) {
        if let old = entries.removeValue(forKey: key) { used -= old.bytes }
    }

    /// Keys to drop, least recently used first, until the tier is within its limit; `canEvict` says which may go
    /// (a chunk being filled may not).
    mutating func evictions(_ canEvict: (Key) -> Bool) -> [Key] {
        guard used > limit else { return [] }
        var out: [Key] = []
        for (key, entry) in entries.sorted(by: { $0.value.stamp < $1.value.stamp }) where used > limit {
            guard canEvict(key) else { continue }
            entries.removeValue(forKey: key)
            used -= entry.bytes
            out.append(key)
        }
        return out
    }
}
