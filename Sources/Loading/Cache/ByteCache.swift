import Foundation

/// Bytes of remote resources, shared by every player and prefetcher: keyed by URL, held in chunks of
/// ``chunkSize`` bytes (a chunk may hold part of its range while a fetch fills it), in a memory tier and an optional
/// disk tier, each bounded in bytes with least-recently-used eviction.
///
/// The bounds, as ``currentStatistics`` reports them: `memoryBytes <= memoryLimit + chunkSize * activeFetches`
/// (a chunk a fetch is filling is never evicted; the others go first, so the excess arises only when the limit is
/// smaller than those chunks), `diskBytes <= diskLimit`, where `diskBytes` counts every file of the directory,
/// chunk files and heads, and is what the directory holds, and `recordBytes <= recordLimit` but for the records
/// of resources in use (chunks in memory, a fetch or a reader: bounded by the memory tier and the readers).
///
/// Readers and fetches meet here (``RemoteByteSource``, ``Fetch``): a reader reads what is cached and otherwise
/// waits for the fetch that will bring its bytes, starting one only when none will (so two readers of the same
/// uncached range cause one fetch). Safe for any number of readers and fetches on any threads; one lock guards it
/// all, and readers wait on it for bytes.
public final class ByteCache: @unchecked Sendable {
    /// Bytes per chunk: the unit of the memory and disk tiers.
    public static let chunkSize = 256 << 10

    /// How much the cache may hold.
    public struct Configuration: Sendable {
        /// Bytes of chunks in memory (default 32 MB), beyond which least recently used chunks are dropped; the
        /// chunks fetches are filling stay, so the tier may exceed it by one chunk per fetch under way.
        public var memoryLimit: Int
        /// Where the disk tier lives; nil for none (the default).
        public var directory: String?
        /// Bytes of the disk tier's files, chunks and heads (default 512 MB): the directory never holds more.
        public var diskLimit: Int
        /// Bytes of the records kept of resources (what the server said of each, its failures, its counts; about
        /// ``CachedResource/cost(of:)`` each, default 1 MB: a few thousand URLs). Past it the records of resources
        /// not in use (no chunk in memory, no fetch, no reader) are forgotten, least recently used first; a URL
        /// read again is learned again (its disk chunks and head stay on disk).
        public var recordLimit: Int

        public init(
            memoryLimit: Int = 32 << 20, directory: String? = nil, diskLimit: Int = 512 << 20,
            recordLimit: Int = 1 << 20
        ) {
            self.memoryLimit = memoryLimit
            self.directory = directory
            self.diskLimit = diskLimit
            self.recordLimit = recordLimit
        }
    }

    /// What the cache did so far.
    public struct Statistics: Sendable, Equatable {
        /// Bytes that arrived from transports and were kept.
        public var bytesFetched: Int64 = 0
        /// Body bytes the transports delivered, kept or not: beside ``bytesFetched``, those of a transfer after it
        /// was replaced or ended (a cancel takes effect on the transport's thread a little later), past a fetch's
        /// end, or of a response refused (another version, a whole file where a range was asked). What the link
        /// carried for this cache, but for what the socket held when a transfer was cut off.
        public var bytesReceived: Int64 = 0
        /// Bytes readers took, and how many of them were already cached when asked for.
        public var bytesRead: Int64 = 0
        public var bytesReadFromCache: Int64 = 0
        /// Transfers started.
        public var transfersStarted = 0
        /// Fetches begun (each brings one span of one resource, through one or more transfers: a pause or a
        /// dropped connection starts another).
        public var fetchesStarted = 0
        /// Chunks in memory and their bytes; bytes of the disk tier's files (chunks and heads).
        public var memoryChunks = 0
        public var memoryBytes = 0
        public var diskBytes = 0
        /// Disk chunks found damaged or cut short (deleted and fetched again).
        public var corruptChunks = 0
        /// Fetches under way, paused ones included: each may keep the chunk it is filling in memory beyond
        /// ``Configuration/memoryLimit``.
        public var activeFetches = 0
        /// Records of resources held, and their bytes (``Configuration/recordLimit``).
        public var records = 0
        public var recordBytes = 0
    }

    /// The cache every item of the process shares by default: memory only, 32 MB.
    public static let shared = ByteCache()

    public let configuration: Configuration
    /// Guards everything below; readers wait on it for bytes.
    let condition = NSCondition()
    var resources: [String: CachedResource] = [:]
    /// What the records of `resources` cost (``CachedResource/cost(of:)``), and the use count that orders them.
    private var recordBytes = 0
    private var uses: UInt64 = 0
    /// The tallies counting fetched bytes (``tally(_:)``).
    private var tallies: [WeakTally] = []
    var memory: MemoryTier
    let disk: DiskTier?
    var statistics = Statistics()
    /// Players claiming the link now (see ``claimLink()``).
    var linkClaims = 0
    /// Counts the changes readers wait for (guarded by `condition`): a reader that released the lock before
    /// waiting sees whether one came meanwhile.
    private(set) var changes: UInt64 = 0

    /// Deliveries under way that hold the readers' wake-up back (``holdSignals()``), and whether one is owed.
    private var held = 0
    private var owed = false

    /// Locked: wakes the readers (bytes came, a fetch ended, a reader left), unless a delivery holds it back.
    func signal() {
        guard held == 0 else {
            owed = true
            return
        }
        changes &+= 1
        condition.broadcast()
    }

    /// Locked: holds the readers' wake-ups back until the matching ``releaseSignals()``.
    func holdSignals() { held += 1 }

    /// Locked: ends a hold; the wake-up owed, if any, goes out when the last hold ends.
    func releaseSignals() {
        held = max(held - 1, 0)
        if held == 0 && owed {
            owed = false
            signal()
        }
    }

    /// A memory-only cache (cannot fail).
    public convenience init(memoryLimit: Int = 32 << 20, recordLimit: Int = 1 << 20) {
        // swiftlint:disable:next force_try
        try! self.init(Configuration(memoryLimit: memoryLimit, recordLimit: recordLimit))
    }

    /// A cache with the tiers `configuration` asks for. - Throws: `MediaError` when the directory cannot be made.
    public init(_ configuration: Configuration) throws(MediaError) {
        self.configuration = configuration
        memory = MemoryTier(limit: configuration.memoryLimit)
        disk = try configuration.directory.map { directory throws(MediaError) in
            try DiskTier(directory: directory, limit: configuration.diskLimit)
        }
    }

    /// A snapshot of what the cache did and holds.
    public var currentStatistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        var out = statistics
        out.memoryChunks = memory.count
        out.memoryBytes = memory.used
        out.diskBytes = disk?.used ?? 0
        out.corruptChunks = disk?.corruptChunks ?? 0
        out.activeFetches = resources.values.reduce(0) { $0 + $1.fetches.count }
        out.records = resources.count
        out.recordBytes = recordBytes
        return out
    }

    /// A tally of the bytes fetched for each of `urls` from now on, while the returned tally lives (the cache does
    /// not keep it alive).
    public func tally(_ urls: some Sequence<String>) -> FetchTally {
        let tally = FetchTally(urls: urls)
        condition.lock()
        defer { condition.unlock() }
        tallies.removeAll { $0.tally == nil }
        tallies.append(WeakTally(tally: tally))
        return tally
    }

    /// The byte ranges of `url` held (in memory or on disk), merged, in order.
    public func cachedRanges(of url: String) -> [Range<Int64>] {
        condition.lock()
        defer { condition.unlock() }
        return ranges(of: url)
    }

    /// The bytes of `url` held from its start, up to `limit` (fewer where a gap comes first), and the resource's
    /// length when a response told it: what a header parse reads without the network.
    public func heldPrefix(of url: String, upTo limit: Int64) -> (bytes: [UInt8], totalLength: Int64?) {
        condition.lock()
        defer { condition.unlock() }
        let resource = resource(url)
        let held = ranges(of: url).first { $0.lowerBound == 0 }.map { min($0.upperBound, limit) } ?? 0
        var bytes = [UInt8](repeating: 0, count: Int(max(held, 0)))
        var done = 0
        bytes.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = copy(
                    resource, at: Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                guard count > 0 else { break }
                done += count
            }
        }
        return (Array(bytes.prefix(done)), resource.totalLength)
    }

    /// Drops everything held for `url` in both tiers (fetches under way go on).
    public func remove(_ url: String) {
        condition.lock()
        defer { condition.unlock() }
        purge(url)
    }

    // MARK: Locked helpers

    /// The entry of `url` (made, with what the disk remembers of it, if new).
    func resource(_ url: String) -> CachedResource {
        uses &+= 1
        if let known = resources[url] {
            known.lastUse = uses
            return known
        }
        let made = CachedResource(url: url)
        made.lastUse = uses
        if let stored = disk?.loadHead(url) {
            made.head = CachedResource.Head(
                totalLength: stored.totalLength,
                validator: ResourceValidator(etag: stored.etag, lastModified: stored.lastModified),
                acceptsRanges: stored.acceptsRanges)
        }
        resources[url] = made
        recordBytes += CachedResource.cost(of: url)
        if recordBytes > configuration.recordLimit { forgetIdleRecords() }
        return made
    }

    /// Forgets the records of resources not in use, least recently used first, down to three quarters of the record
    /// limit (so that the sweep, which looks at every record, runs once per many new ones), or as far as there
    /// are such records. The newest record (just made, not in use yet) stays.
    private func forgetIdleRecords() {
        let target = configuration.recordLimit / 4 * 3
        let idle = resources.values.filter { $0.isIdle && $0.lastUse != uses }.sorted { $0.lastUse < $1.lastUse }
        for resource in idle {
            guard recordBytes > target else { break }
            resources.removeValue(forKey: resource.url)
            recordBytes -= CachedResource.cost(of: resource.url)
        }
    }

    /// Locked: counts `bytes` fetched for `url` in every live tally for it.
    private func tallyFetched(_ bytes: Int, for url: String) {
        for entry in tallies { entry.tally?.add(bytes, for: url) }
    }

    /// Locked: counts body bytes a transport delivered for `url`, whether a fetch keeps them or not.
    func countReceived(_ bytes: Int, for url: String) {
        statistics.bytesReceived += Int64(bytes)
        for entry in tallies { entry.tally?.add(received: bytes, for: url) }
    }

    /// The chunk holding `index` of `resource`, from memory or (loaded and checked) from disk.
    func chunk(_ resource: CachedResource, _ index: Int) -> ChunkBuffer? {
        let key = MemoryTier.Key(resource: resource.url, index: index)
        if let chunk = resource.chunks[index] {
            memory.touch(key, bytes: chunk.capacity)
            return chunk
        }
        guard let loaded = disk?.load(key) else { return nil }
        resource.chunks[index] = loaded
        memory.touch(key, bytes: loaded.capacity)
        evict()
        return loaded
    }

    /// Copies bytes of `resource` at `position` into `buffer`; returns how many (0 when none is cached there).
    func copy(_ resource: CachedResource, at position: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let index = Int(position / Int64(Self.chunkSize))
        let offset = Int(position % Int64(Self.chunkSize))
        guard let chunk = chunk(resource, index), chunk.contains(offset) else { return 0 }
        return chunk.read(at: offset, into: buffer)
    }

    /// Writes fetched bytes of `resource` at `position`, chunk by chunk; complete chunks go to disk.
    func write(_ resource: CachedResource, _ bytes: UnsafeRawBufferPointer, at position: Int64) {
        var done = 0
        while done < bytes.count {
            let at = position + Int64(done)
            let index = Int(at / Int64(Self.chunkSize))
            let offset = Int(at % Int64(Self.chunkSize))
            let chunk = resource.chunks[index] ?? makeChunk(resource, index)
            let count = min(bytes.count - done, chunk.capacity - offset)
            guard count > 0 else { break }
            chunk.write(UnsafeRawBufferPointer(rebasing: bytes[done..<done + count]), at: offset)
            memory.touch(MemoryTier.Key(resource: resource.url, index: index), bytes: chunk.capacity)
            let key = MemoryTier.Key(resource: resource.url, index: index)
            if chunk.isComplete, let disk, let head = resource.head, !disk.contains(key) {
                disk.store(key, chunk, head: Self.storedHead(resource.url, head))
            }
            done += count
        }
        statistics.bytesFetched += Int64(bytes.count)
        if !tallies.isEmpty { tallyFetched(bytes.count, for: resource.url) }
        evict()
    }

    private func makeChunk(_ resource: CachedResource, _ index: Int) -> ChunkBuffer {
        var capacity = Self.chunkSize
        if let total = resource.totalLength {
            capacity = Int(max(0, min(Int64(Self.chunkSize), total - Int64(index) * Int64(Self.chunkSize))))
        }
        let chunk = ChunkBuffer(capacity: capacity)
        resource.chunks[index] = chunk
        return chunk
    }

    /// Drops least recently used chunks from memory until within the limit; chunks a fetch is filling stay.
    func evict() {
        let evicted = memory.evictions { key in
            guard let resource = resources[key.resource] else { return true }
            return !resource.fetches.contains { $0.isFilling(chunk: key.index) }
        }
        for key in evicted { resources[key.resource]?.chunks.removeValue(forKey: key.index) }
    }

    /// Records what the server said of `resource`, in memory and on disk.
    func setHead(_ resource: CachedResource, _ head: CachedResource.Head) {
        resource.head = head
        disk?.storeHead(Self.storedHead(resource.url, head))
    }

    /// `head` as the disk tier stores it.
    static func storedHead(_ url: String, _ head: CachedResource.Head) -> DiskTier.StoredHead {
        DiskTier.StoredHead(
            url: url, totalLength: head.totalLength, etag: head.validator.etag,
            lastModified: head.validator.lastModified, acceptsRanges: head.acceptsRanges)
    }

    /// Forgets `url`'s bytes (memory and disk) and head.
    func purge(_ url: String) {
        if let resource = resources[url] {
            for index in resource.chunks.keys { memory.remove(MemoryTier.Key(resource: url, index: index)) }
            resource.chunks.removeAll()
            resource.head = nil
            resource.endReached = nil
        }
        disk?.remove(url)
    }

    /// The byte ranges of `url` held, merged.
    func ranges(of url: String) -> [Range<Int64>] {
        let resource = resources[url]
        var pieces: [Range<Int64>] = []
        for (index, chunk) in resource?.chunks ?? [:] {
            let base = Int64(index) * Int64(Self.chunkSize)
            for range in chunk.valid { pieces.append(base + Int64(range.lowerBound)..<base + Int64(range.upperBound)) }
        }
        if let disk {
            for index in disk.indices(of: url) where resource?.chunks[index] == nil {
                let base = Int64(index) * Int64(Self.chunkSize)
                pieces.append(base..<base + Int64(disk.payloadBytes(MemoryTier.Key(resource: url, index: index))))
            }
        }
        var merged: [Range<Int64>] = []
        for piece in pieces.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, piece.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, piece.upperBound)
            } else {
                merged.append(piece)
            }
        }
        return merged
    }
}
