import Foundation
import Locking

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
/// Readers and fetches meet here (``RemoteByteSource``, ``FetchMachine``): a reader reads what is cached and
/// otherwise waits for the fetch that will bring its bytes, starting one only when none will (so two readers of the
/// same uncached range cause one fetch). Safe for any number of readers and fetches on any threads.
///
/// Decide, then act: everything the cache knows is one value (``CacheState``) behind one lock. A reader's call, a
/// transport's delivery or a link claim takes the lock, lets the state decide (the fetches are ``FetchMachine``
/// values that return actions), and releases it; then the transport's calls decided (start, cancel, pause), the
/// retries' timers and the completion handlers run, outside the lock. Files are read by the reader that needs
/// them and written by the disk tier's writer thread, never under the lock.
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
        /// Bytes of complete chunks waiting for the disk tier's writer thread (default 8 MB): a chunk that does not
        /// fit is not stored on disk (``Statistics/diskWritesDropped``).
        public var diskQueueLimit: Int
        /// Seconds (wall clock) a use of a resource outlasts its last reader and fetch (default 30): HTTP caching
        /// checks held bytes once per use (fresh, or revalidated first). A play's bytes are fetched up to its forward
        /// buffer ahead of its reads (30 s of media by default: an HLS segment downloaded, then read seconds later
        /// by another reader), and checking them again between the two would be a round trip in the middle of the
        /// play for nothing (a live stream's segments, seconds old, are stale at once by the heuristic).
        public var useGrace: Double

        public init(
            memoryLimit: Int = 32 << 20, directory: String? = nil, diskLimit: Int = 512 << 20,
            recordLimit: Int = 1 << 20, diskQueueLimit: Int = 8 << 20, useGrace: Double = 30
        ) {
            self.memoryLimit = memoryLimit
            self.directory = directory
            self.diskLimit = diskLimit
            self.recordLimit = recordLimit
            self.diskQueueLimit = diskQueueLimit
            self.useGrace = useGrace
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
        /// Transfers started (revalidations aside).
        public var transfersStarted = 0
        /// Conditional requests made for held bytes that were stale (or `no-cache`), and how many the server
        /// confirmed (304: the bytes were kept).
        public var revalidations = 0
        public var revalidationsConfirmed = 0
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
        /// Complete chunks not stored on disk because the writer's queue was full, and the most bytes it held
        /// (at most ``Configuration/diskQueueLimit``).
        public var diskWritesDropped = 0
        public var diskQueuePeakBytes = 0
    }

    /// The cache every item of the process shares by default: memory only, 32 MB.
    public static let shared = ByteCache()

    public let configuration: Configuration
    /// Guards `state`; readers wait on it for bytes.
    private let condition = NSCondition()
    private var state: CacheState
    /// Who is told of each transfer measurement (``observeTransfers(_:)``).
    let transferObservers = Locked(TransferObservers())
    let disk: DiskTier?

    /// A memory-only cache (cannot fail).
    public convenience init(memoryLimit: Int = 32 << 20, recordLimit: Int = 1 << 20) {
        // swiftlint:disable:next force_try
        try! self.init(Configuration(memoryLimit: memoryLimit, recordLimit: recordLimit))
    }

    /// A cache with the tiers `configuration` asks for. - Throws: `MediaError` when the directory cannot be made.
    public init(_ configuration: Configuration) throws(MediaError) {
        self.configuration = configuration
        disk = try configuration.directory.map { directory throws(MediaError) in
            try DiskTier(directory: directory, limit: configuration.diskLimit, queueLimit: configuration.diskQueueLimit)
        }
        state = CacheState(configuration: configuration, disk: disk)
    }

    deinit { disk?.close() }

    // MARK: Decide, then act

    /// Runs `body` on the state under the lock, wakes the readers if it asks, and performs the actions it queued
    /// once the lock is released.
    func withState<Result>(_ body: (inout CacheState) -> Result) -> Result {
        condition.lock()
        let result = body(&state)
        let actions = state.actions
        state.actions.removeAll()
        if state.wakeOwed {
            state.wakeOwed = false
            condition.broadcast()
        }
        condition.unlock()
        if !actions.isEmpty { perform(actions) }
        return result
    }

    private func perform(_ actions: [CacheAction]) {
        for action in actions {
            switch action {
            case .start(let serial, let fetch, let request, let transport):
                let receiver = TransferReceiver(cache: self, fetch: fetch, serial: serial, url: request.url)
                let handle = transport.start(request, sink: receiver)
                let (cancel, syncPause) = withState { $0.transferStarted(serial, handle: handle) }
                if cancel {
                    handle.cancel()
                } else if syncPause {
                    self.syncPause(serial)
                }
            case .cancel(let handle): handle.cancel()
            case .syncPause(let serial): syncPause(serial)
            case .retry(let fetch, let seconds):
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                    withState { $0.step(fetch, .retryDue) }
                }
            case .complete(let completion, let outcome): completion.complete(outcome)
            case .measured(let measurement):
                for observer in transferObservers.withLock({ Array($0.observers.values) }) { observer(measurement) }
            case .revalidate(let serial, let request, let transport):
                _ = transport.start(
                    request,
                    sink: RevalidationReceiver(cache: self, url: request.url, serial: serial, headers: request.headers))
            }
        }
    }

    /// Brings transfer `serial`'s handle to the paused state last decided, taking turns with other threads.
    private func syncPause(_ serial: UInt64) {
        while let (handle, paused) = withState({ $0.beginPauseSync(serial) }) {
            handle.setPaused(paused)
            withState { $0.endPauseSync(serial, paused: paused) }
        }
    }

    /// Waits, on a reader's thread, for a change after `seen` (bytes, an end, a failure, a close); a reader of a
    /// clock-paced transport first tells its observers, with the lock released (an observer takes a player's lock).
    func wait(_ reader: ReaderID, seen: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        guard state.changes == seen, state.readers[reader] != nil else { return }
        state.readers[reader]?.waitingSince = seen
        defer { state.readers[reader]?.waitingSince = nil }
        if let observers = state.readers[reader]?.waitingObservers, !observers.isEmpty,
            state.readers[reader]?.transport.isPacedByClock == true
        {
            condition.unlock()
            for observer in observers { observer() }
            condition.lock()
            if state.changes != seen { return }
        }
        condition.wait()
    }

    /// Loads chunk `key` from the disk tier on the calling thread (a reader's, outside the lock); nil when it is
    /// gone or was damaged (then dropped).
    func load(_ key: MemoryTier.Key) -> ChunkBuffer? { disk?.load(key) }

    // MARK: Public

    /// A snapshot of what the cache did and holds.
    public var currentStatistics: Statistics {
        var out = withState { state in
            var out = state.statistics
            out.memoryChunks = state.memory.count
            out.memoryBytes = state.memory.used
            out.activeFetches = state.fetches.count
            out.records = state.resources.count
            out.recordBytes = state.recordCost
            return out
        }
        out.diskBytes = disk?.used ?? 0
        out.corruptChunks = disk?.corruptChunks ?? 0
        out.diskQueuePeakBytes = disk?.peakQueuedBytes ?? 0
        return out
    }

    /// A tally of the bytes fetched for each of `urls` from now on, while the returned tally lives (the cache does
    /// not keep it alive).
    public func tally(_ urls: some Sequence<String>) -> FetchTally {
        let tally = FetchTally(urls: urls)
        withState { state in
            state.tallies.removeAll { $0.tally == nil }
            state.tallies.append(WeakTally(tally: tally))
        }
        return tally
    }

    /// The byte ranges of `url` held (in memory or on disk), merged, in order.
    public func cachedRanges(of url: String) -> [Range<Int64>] {
        withState { $0.ranges(of: url) }
    }

    /// The bytes of `url` held from its start, up to `limit` (fewer where a gap comes first), and the resource's
    /// length when a response told it: what a header parse reads without the network.
    public func heldPrefix(of url: String, upTo limit: Int64) -> (bytes: [UInt8], totalLength: Int64?) {
        let (held, total) = withState { state in
            (
                state.ranges(of: url).first { $0.lowerBound == 0 }.map { min($0.upperBound, limit) } ?? 0,
                state.resource(url).totalLength
            )
        }
        var bytes = [UInt8](repeating: 0, count: Int(max(held, 0)))
        var done = 0
        var loads = 0
        while done < bytes.count {
            let found = bytes.withUnsafeMutableBytes { buffer in
                withState {
                    $0.copy(url, at: Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
                }
            }
            switch found {
            case .inMemory(let count) where count > 0: done += count
            case .onDisk(let key) where loads < 2 * bytes.count / ByteCache.chunkSize + 2:
                loads += 1
                if let chunk = load(key) { withState { $0.install(chunk, key) } }
            default: return (Array(bytes.prefix(done)), total)
            }
        }
        return (Array(bytes.prefix(done)), total)
    }

    /// `url`'s length when a response told it (a transfer's head, in memory or recorded by the disk tier); nil
    /// otherwise. Sends nothing.
    public func knownLength(of url: String) -> Int64? {
        withState { $0.resource(url).totalLength }
    }

    /// Drops everything held for `url` in both tiers (fetches under way go on).
    public func remove(_ url: String) {
        withState { $0.purge(url) }
    }

    /// Waits until the chunks queued for the disk tier are written (at once without one).
    public func flush() { disk?.flush() }
}
