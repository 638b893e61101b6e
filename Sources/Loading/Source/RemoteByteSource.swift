import Foundation

/// The bytes of a URL for one reader (a demuxer), through a ``ByteCache`` and a ``Transport``: reads take what
/// is cached, and otherwise wait for the fetch that will bring the bytes, starting one when none will. Seeks are
/// free (a read at the new position fetches from there: a byte range). Fetches run ahead of the reader up to its
/// read-ahead, then pause until it catches up.
///
/// Reads block the calling thread (a demuxer's, never the cooperative pool) until bytes come, the transfer fails
/// (its `MediaError`: host not found, refused, HTTP status, timeout, lost connection, changed content), or the
/// source is closed. Each read is one call into the cache that answers bytes, wait or failed (or: load this disk
/// chunk, which the reader does on its own thread). Under a transport paced by a manual clock it is a
/// `ClockPacedByteSource`.
public final class RemoteByteSource: ProgressiveByteSource, ClockPacedByteSource, Sendable {
    public let url: String
    public let cache: ByteCache
    public let transport: any Transport
    private let id: ReaderID

    /// Fetches at most this far ahead of the reader by default.
    public static let defaultReadAhead: Int64 = 8 << 20
    /// The least read-ahead a reader may ask for (a poster's: it reads a header and one keyframe, then leaves).
    public static let minimumReadAhead: Int64 = 32 << 10

    /// A source of `url` read through `cache` and `transport`, registered as a reader at byte 0; the fetches begun
    /// for it send `headers`.
    public init(
        url: String, cache: ByteCache = .shared, transport: any Transport = HTTPLoader.shared,
        priority: TransferPriority = .playback, readAhead: Int64 = RemoteByteSource.defaultReadAhead,
        headers: [String: String] = [:]
    ) {
        self.url = url
        self.cache = cache
        self.transport = transport
        id = cache.withState {
            $0.openReader(
                url, transport: transport, priority: priority, readAhead: max(readAhead, Self.minimumReadAhead),
                headers: headers)
        }
    }

    deinit { close() }

    // MARK: ByteSource

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        guard buffer.count > 0 else { return 0 }
        var waited = false
        var loaded: (key: MemoryTier.Key, chunk: ChunkBuffer)?
        while true {
            switch cache.withState({ $0.read(id, into: buffer, waited: waited, loaded: loaded) }) {
            case .bytes(let count): return count
            case .end: return 0
            case .failed(let error): throw error
            case .load(let key): loaded = cache.load(key).map { (key, $0) }
            case .wait(let seen):
                waited = true
                cache.wait(id, seen: seen)
            }
        }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        cache.withState { state in
            state.readers[id]?.position = max(offset, 0)
            state.updateInterest(id)
        }
    }

    /// The resource's length: known from the cache, or from the first response (waiting for it).
    public var size: Int64? {
        while true {
            let answer = cache.withState { $0.size(id) }
            if answer.known { return answer.length }
            cache.wait(id, seen: answer.seen)
        }
    }

    public func close() {
        cache.withState { $0.closeReader(id) }
    }

    // MARK: Progress

    public var progress: ByteSourceProgress {
        cache.withState { $0.progress(id, url: url) }
    }

    /// Makes this reader's fetches playback or prefetch from now on (a prepared player's item becoming the one
    /// that plays).
    public func setPriority(_ priority: TransferPriority) {
        cache.withState { state in
            state.readers[id]?.priority = priority
            state.updateInterest(id)
        }
    }

    /// Bounds the fetches begun for this reader from now on: they ask for bytes before `end` only, so that a reader
    /// that knows where its need ends (a poster: the header and the first keyframe's samples, from the sample index)
    /// has no transfer run past it. A read at or past `end` fetches one read-ahead from where it reads. Nil: fetches
    /// run to the next bytes held (or the end).
    public func setFetchLimit(_ end: Int64?) {
        cache.withState { $0.readers[id]?.fetchLimit = end }
    }

    /// This reader's priority.
    public var currentPriority: TransferPriority {
        cache.withState { $0.readers[id]?.priority ?? .prefetch }
    }

    public func setReadAhead(_ bytes: Int64) {
        cache.withState { state in
            state.readers[id]?.readAhead = max(bytes, Self.minimumReadAhead)
            state.updateInterest(id)
        }
    }

    // MARK: ClockPacedByteSource

    public var isPacedByClock: Bool { transport.isPacedByClock }

    public var isWaitingForClock: Bool {
        guard transport.isPacedByClock else { return false }
        return cache.withState { state in
            state.readers[id]?.waitingSince.map { $0 == state.changes } ?? false
        }
    }

    public func observeWaitingForClock(_ observer: @escaping @Sendable () -> Void) {
        cache.withState { $0.readers[id]?.waitingObservers.append(observer) }
    }
}
