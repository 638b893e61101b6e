/// What the cache knows of one URL: what the server said of it, its chunks in memory, the fetches filling it, the
/// readers reading it and where, and failures. Part of the cache's state value (``CacheState``).
struct ResourceRecord {
    let url: String
    var head: ResourceHead?
    /// Chunks in memory (buffers the cache's lock guards).
    var chunks: [Int: ChunkBuffer] = [:]
    /// The fetches filling it, in the order they began.
    var fetches: [FetchID] = []
    var readers: [ReaderID: ReaderInterest] = [:]
    /// Where the resource ends, once a transfer to its end finished without the server saying its length.
    var endReached: Int64?
    /// A fetch failed and could not be resumed: reads from `position` on (up to where the fetch meant to go)
    /// throw `error`, once for each reader that was there when it failed (`serial` tells them apart: a reader
    /// opened later, or reading again after the error, tries again).
    var failure: (position: Int64, end: Int64?, error: MediaError, serial: UInt64)?
    /// Failures so far (the last one's `serial`).
    var failures: UInt64 = 0
    /// Whether the bytes held may be used for the current use (``CacheState/freshnessGate(_:)``).
    var validation = Validation.unchecked

    /// The download rate (see ``RateMeter``).
    var rate = RateMeter()
    /// Bytes fetched for this resource so far, and when the first transfer started and its first byte came
    /// (transport time).
    var bytesFetched: Int64 = 0
    var firstTransferStarted: Double?
    var firstByteArrived: Double?

    /// The cache's use count when the resource was last looked up (orders the records it forgets).
    var lastUse: UInt64 = 0

    init(url: String) { self.url = url }

    var totalLength: Int64? { head?.totalLength ?? endReached }

    /// Not in use: no chunk in memory, no fetch, no reader (its download rate was reset when its last fetch ended).
    var isIdle: Bool { chunks.isEmpty && fetches.isEmpty && readers.isEmpty }

    /// What a record of `url` costs, as the cache counts it: the object and its map entry, what the server said
    /// (length, validators), a failure's error (it names the URL), the counts and times (about 512 bytes), and the
    /// URL twice.
    static func cost(of url: String) -> Int { 512 + 2 * url.utf8.count }
}

/// Where a resource's held bytes stand for its current use (from a first reader to the moment none has been left
/// for ``ByteCache/Configuration/useGrace`` seconds): not looked at yet, being confirmed by the server (the
/// revalidation's transfer serial), usable, or usable until the grace after its last reader left (wall-clock
/// seconds) ends.
enum Validation: Equatable {
    case unchecked
    case pending(UInt64)
    case valid
    case lapsing(since: Double)
}

/// A fetch's number in its cache.
struct FetchID: Hashable, Comparable {
    let value: UInt64
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }
}

/// A reader's number in its cache (one per ``RemoteByteSource``).
struct ReaderID: Hashable {
    let value: UInt64
}
