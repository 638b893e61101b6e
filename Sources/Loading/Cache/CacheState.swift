/// Everything a ``ByteCache`` knows, as one value behind its one lock: the resources and their chunks in memory,
/// the fetches (``FetchMachine`` values) and the transfers they run, the readers and where they read, the link
/// claims, the counts. Its methods decide; what must happen outside the lock (a transport's call, a completion
/// handler) is queued in ``actions``, which the cache performs once it released the lock.
struct CacheState {
    let configuration: ByteCache.Configuration
    /// The disk tier, if any: its index is safe to ask under this lock (it takes only its own short lock); its files
    /// are read by readers outside this lock and written by its writer thread.
    let disk: DiskTier?
    var memory: MemoryTier
    var resources: [String: ResourceRecord] = [:]
    var fetches: [FetchID: FetchRecord] = [:]
    var readers: [ReaderID: ReaderState] = [:]
    /// Transfers started or about to be, by serial (``TransferSlot``).
    var transfers: [UInt64: TransferSlot] = [:]
    var statistics = ByteCache.Statistics()
    /// Players claiming the link now.
    var linkClaims = 0
    /// Counts the changes readers wait for: a reader that released the lock before waiting sees whether one came
    /// meanwhile.
    private(set) var changes: UInt64 = 0
    /// Whether waiting readers must be woken when the lock is released.
    var wakeOwed = false
    /// Deliveries under way that hold the readers' wake-up back, and whether one is owed.
    private var held = 0
    private var signalOwed = false
    /// What the records of `resources` cost, and the use count that orders them.
    private var recordBytes = 0
    private var uses: UInt64 = 0
    /// The tallies counting fetched bytes.
    var tallies: [WeakTally] = []
    private var numbers: UInt64 = 0
    /// What to do once the lock is released, in order.
    var actions: [CacheAction] = []

    init(configuration: ByteCache.Configuration, disk: DiskTier?) {
        self.configuration = configuration
        self.disk = disk
        memory = MemoryTier(limit: configuration.memoryLimit)
    }

    mutating func nextNumber() -> UInt64 {
        numbers &+= 1
        return numbers
    }

    var recordCost: Int { recordBytes }

    // MARK: Waking readers

    /// Wakes the readers (bytes came, a fetch ended, a reader left), unless a delivery holds it back.
    mutating func signal() {
        guard held == 0 else {
            signalOwed = true
            return
        }
        changes &+= 1
        wakeOwed = true
    }

    /// Holds the readers' wake-ups back until the matching ``releaseSignals()``.
    mutating func holdSignals() { held += 1 }

    /// Ends a hold; the wake-up owed, if any, goes out when the last hold ends.
    mutating func releaseSignals() {
        held = max(held - 1, 0)
        if held == 0 && signalOwed {
            signalOwed = false
            signal()
        }
    }

    // MARK: Resources

    /// Makes sure `url` has a record (made, with what the disk remembers of it, if new) and marks its use.
    mutating func touch(_ url: String) {
        uses &+= 1
        if resources[url] != nil {
            resources[url]?.lastUse = uses
            return
        }
        var made = ResourceRecord(url: url)
        made.lastUse = uses
        if let stored = disk?.head(of: url) {
            made.head = ResourceHead(
                totalLength: stored.totalLength,
                validator: ResourceValidator(etag: stored.etag, lastModified: stored.lastModified),
                acceptsRanges: stored.acceptsRanges, caching: stored.caching)
        }
        resources[url] = made
        recordBytes += ResourceRecord.cost(of: url)
        if recordBytes > configuration.recordLimit { forgetIdleRecords() }
    }

    /// The record of `url` (made if new).
    mutating func resource(_ url: String) -> ResourceRecord {
        touch(url)
        return resources[url]!
    }

    /// Forgets the records of resources not in use, least recently used first, down to three quarters of the record
    /// limit (so that the sweep, which looks at every record, runs once per many new ones), or as far as there
    /// are such records. The newest record (just made, not in use yet) stays.
    private mutating func forgetIdleRecords() {
        let target = configuration.recordLimit / 4 * 3
        let idle = resources.values.filter { $0.isIdle && $0.lastUse != uses }.sorted { $0.lastUse < $1.lastUse }
        for resource in idle {
            guard recordBytes > target else { break }
            resources.removeValue(forKey: resource.url)
            recordBytes -= ResourceRecord.cost(of: resource.url)
        }
    }

    // MARK: Counting

    /// Counts body bytes a transport delivered for `url`, whether a fetch keeps them or not.
    mutating func countReceived(_ bytes: Int, for url: String) {
        statistics.bytesReceived += Int64(bytes)
        for entry in tallies { entry.tally?.add(received: bytes, for: url) }
    }

    // MARK: Chunks

    /// Where the byte at `position` of `url` is: in memory (copied into `buffer`: how many bytes), on disk (the
    /// reader loads that chunk outside the lock), or nowhere.
    mutating func copy(_ url: String, at position: Int64, into buffer: UnsafeMutableRawBufferPointer) -> HeldAt {
        let index = Int(position / Int64(ByteCache.chunkSize))
        let offset = Int(position % Int64(ByteCache.chunkSize))
        let key = MemoryTier.Key(resource: url, index: index)
        guard let chunk = resources[url]?.chunks[index] else {
            return disk?.contains(key) == true ? .onDisk(key) : .nowhere
        }
        memory.touch(key, bytes: chunk.capacity)
        guard chunk.contains(offset) else { return .nowhere }
        return .inMemory(chunk.read(at: offset, into: buffer))
    }

    /// Takes a chunk a reader loaded from disk into memory (unless one is there already).
    mutating func install(_ chunk: ChunkBuffer, _ key: MemoryTier.Key) {
        guard resources[key.resource] != nil, resources[key.resource]?.chunks[key.index] == nil else { return }
        resources[key.resource]?.chunks[key.index] = chunk
        memory.touch(key, bytes: chunk.capacity)
        evict()
    }

    /// Writes fetched bytes of `url` at `position`, chunk by chunk; complete chunks are queued for the disk.
    mutating func write(_ url: String, _ bytes: UnsafeRawBufferPointer, at position: Int64) {
        var done = 0
        while done < bytes.count {
            let at = position + Int64(done)
            let index = Int(at / Int64(ByteCache.chunkSize))
            let offset = Int(at % Int64(ByteCache.chunkSize))
            let chunk = resources[url]?.chunks[index] ?? makeChunk(url, index)
            let count = min(bytes.count - done, chunk.capacity - offset)
            guard count > 0 else { break }
            chunk.write(UnsafeRawBufferPointer(rebasing: bytes[done..<done + count]), at: offset)
            let key = MemoryTier.Key(resource: url, index: index)
            memory.touch(key, bytes: chunk.capacity)
            if chunk.isComplete, let disk, let head = resources[url]?.head, head.caching?.noStore != true,
                !disk.contains(key)
            {
                if !disk.enqueue(key, chunk, head: Self.storedHead(url, head)) { statistics.diskWritesDropped += 1 }
            }
            done += count
        }
        statistics.bytesFetched += Int64(bytes.count)
        for entry in tallies { entry.tally?.add(bytes.count, for: url) }
        evict()
    }

    private mutating func makeChunk(_ url: String, _ index: Int) -> ChunkBuffer {
        var capacity = ByteCache.chunkSize
        if let total = resources[url]?.totalLength {
            capacity = Int(max(0, min(Int64(ByteCache.chunkSize), total - Int64(index) * Int64(ByteCache.chunkSize))))
        }
        let chunk = ChunkBuffer(capacity: capacity)
        resources[url]?.chunks[index] = chunk
        return chunk
    }

    /// Drops least recently used chunks from memory until within the limit. Two kinds stay: a chunk a fetch is
    /// filling, and the chunk each open reader reads next. Without the second, a small memory tier under many
    /// readers dropped a reader's next chunk before the reader had copied it (other fetches' bytes came in between),
    /// the reader fetched it again, and it was dropped again: readers waited for good while a transfer ran at full
    /// speed (a ConcurrentReadTests run, 8 readers through 2 MB). So memory may hold, besides its limit, one chunk
    /// per open reader while every other chunk is in use; back within the limit as readers move on or close.
    mutating func evict() {
        guard memory.used > memory.limit else { return }
        var kept = Set(
            fetches.values.filter { !$0.machine.isFinished }.map {
                MemoryTier.Key(
                    resource: $0.machine.url, index: Int($0.machine.position / Int64(ByteCache.chunkSize)))
            })
        for reader in readers.values {
            kept.insert(MemoryTier.Key(resource: reader.url, index: Int(reader.position / Int64(ByteCache.chunkSize))))
        }
        let evicted = memory.evictions { !kept.contains($0) }
        for key in evicted { resources[key.resource]?.chunks.removeValue(forKey: key.index) }
    }

    /// Whether the byte at `offset` of `url` is in a chunk in memory.
    func isHeldInMemory(_ url: String, _ offset: Int64) -> Bool {
        let chunk = resources[url]?.chunks[Int(offset / Int64(ByteCache.chunkSize))]
        return chunk?.contains(Int(offset % Int64(ByteCache.chunkSize))) ?? false
    }

    /// Records what the server said of `url`, in memory and (queued) on disk.
    mutating func setHead(_ url: String, _ head: ResourceHead) {
        resources[url]?.head = head
        // A response from the server: the bytes that follow are its own (validated for this use).
        resources[url]?.validation = .valid
        if head.caching?.noStore == true {
            // Never on disk: what an earlier response stored goes.
            if disk?.head(of: url) != nil { disk?.remove(url) }
            return
        }
        disk?.enqueueHead(Self.storedHead(url, head))
    }

    /// `head` as the disk tier stores it.
    static func storedHead(_ url: String, _ head: ResourceHead) -> DiskTier.StoredHead {
        DiskTier.StoredHead(
            url: url, totalLength: head.totalLength, etag: head.validator.etag,
            lastModified: head.validator.lastModified, acceptsRanges: head.acceptsRanges, caching: head.caching)
    }

    /// Forgets `url`'s bytes (memory and disk) and head.
    mutating func purge(_ url: String) {
        if let indices = resources[url]?.chunks.keys {
            for index in indices { memory.remove(MemoryTier.Key(resource: url, index: index)) }
            resources[url]?.chunks.removeAll()
            resources[url]?.head = nil
            resources[url]?.endReached = nil
        }
        disk?.remove(url)
    }

    /// The byte ranges of `url` held, merged.
    func ranges(of url: String) -> [Range<Int64>] {
        let chunks = resources[url]?.chunks ?? [:]
        var pieces: [Range<Int64>] = []
        for (index, chunk) in chunks {
            let base = Int64(index) * Int64(ByteCache.chunkSize)
            for range in chunk.valid { pieces.append(base + Int64(range.lowerBound)..<base + Int64(range.upperBound)) }
        }
        for (index, bytes) in disk?.payloads(of: url) ?? [] where chunks[index] == nil {
            let base = Int64(index) * Int64(ByteCache.chunkSize)
            pieces.append(base..<base + Int64(bytes))
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

/// Where a byte is held (``CacheState/copy(_:at:into:)``).
enum HeldAt {
    case inMemory(Int)
    case onDisk(MemoryTier.Key)
    case nowhere
}

/// What the cache does once its lock is released.
enum CacheAction {
    /// Starts transfer `serial` of fetch `fetch`.
    case start(serial: UInt64, fetch: FetchID, request: TransferRequest, transport: any Transport)
    case cancel(any TransferHandle)
    /// Brings transfer `serial`'s handle to the paused state last decided (``TransferSlot``).
    case syncPause(serial: UInt64)
    /// Tells fetch `fetch` its retry delay ended, after `seconds`.
    case retry(FetchID, seconds: Double)
    /// Tells whoever waits for a fetch how it ended.
    case complete(FetchCompletion, MediaError?)
    /// Tells the transfer observers what a resource's transfers delivered since they last began moving.
    case measured(TransferMeasurement)
    /// Starts revalidation `serial` (a conditional request for what is held of a resource).
    case revalidate(serial: UInt64, request: TransferRequest, transport: any Transport)
}

/// One fetch as the cache keeps it: its machine, the transport it runs on, who waits for its end, and its current
/// transfer's serial.
struct FetchRecord {
    var machine: FetchMachine
    let transport: any Transport
    var completion: FetchCompletion?
    var transfer: UInt64?
}

/// A transfer between the decision to start it and its end: its handle once the transport returned it, and what
/// was decided for it before that (a stop), which the thread that started it applies.
///
/// Pauses converge: `paused` is the state last decided, `applied` the one the handle was last brought to, and one
/// thread at a time (`applying`) brings it there, looking again when done. Threads performing their decisions
/// after the lock may run in any order: a pause decided before a resume but performed after it left a transfer
/// paused that the state took for running (readers waited for it for good).
struct TransferSlot {
    var handle: (any TransferHandle)?
    var stopped = false
    var paused = false
    var applied = false
    var applying = false
}
