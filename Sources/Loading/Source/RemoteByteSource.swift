import Foundation

/// The bytes of a URL for one reader (a demuxer), through a ``ByteCache`` and a ``Transport``: reads take what
/// is cached, and otherwise wait for the fetch that will bring the bytes, starting one when none will. Seeks are
/// free (a read at the new position fetches from there: a byte range). Fetches run ahead of the reader up to its
/// read-ahead, then pause until it catches up.
///
/// Reads block the calling thread (a demuxer's, never the cooperative pool) until bytes come, the transfer fails
/// (its `MediaError`: host not found, refused, HTTP status, timeout, lost connection, changed content), or the
/// source is closed. Under a transport paced by a manual clock it is a `ClockPacedByteSource`.
public final class RemoteByteSource: ProgressiveByteSource, ClockPacedByteSource, @unchecked Sendable {
    public let url: String
    public let cache: ByteCache
    public let transport: any Transport
    // Guarded by the cache's lock.
    /// Playback, or prefetch: a prefetch reader's fetches give way while a player claims the link.
    private var priority: TransferPriority
    private var position: Int64 = 0
    private var readAhead: Int64
    private var closed = false
    /// While its reader waits: the cache's change count when it began. A change since (bytes came) means the
    /// reader is about to go on, even if its thread has not woken yet.
    private var waitingSince: UInt64?
    private var waitingObservers: [@Sendable () -> Void] = []
    /// The version of the resource this reader read (its validator), once it read a byte: it never reads bytes of
    /// another. A fetch that meets a new version drops the cached bytes, and a fetch started afterwards (for this
    /// reader or another) brings the new version's: without this, a reader behind the failed fetch went on reading
    /// the new version after the old (ServerFaultTests found a file spliced from two versions, with no error).
    private var version: ResourceValidator?
    /// The serial of the last fetch failure this reader saw (or that happened before it was opened).
    private var failuresSeen: UInt64 = 0
    /// Where the fetches begun for this reader end at the latest (``setFetchLimit(_:)``).
    private var fetchLimit: Int64?

    /// Fetches at most this far ahead of the reader by default.
    public static let defaultReadAhead: Int64 = 8 << 20
    /// The least read-ahead a reader may ask for (a poster's: it reads a header and one keyframe, then leaves).
    public static let minimumReadAhead: Int64 = 32 << 10

    /// A source of `url` read through `cache` and `transport`, registered as a reader at byte 0.
    public init(
        url: String, cache: ByteCache = .shared, transport: any Transport = HTTPLoader.shared,
        priority: TransferPriority = .playback, readAhead: Int64 = RemoteByteSource.defaultReadAhead
    ) {
        self.url = url
        self.cache = cache
        self.transport = transport
        self.priority = priority
        self.readAhead = max(readAhead, Self.minimumReadAhead)
        cache.condition.lock()
        failuresSeen = cache.resource(url).failures
        updateInterest()
        cache.condition.unlock()
    }

    deinit { close() }

    // MARK: ByteSource

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) -> Int {
        guard buffer.count > 0 else { return 0 }
        cache.condition.lock()
        defer { cache.condition.unlock() }
        let resource = cache.resource(url)
        var waited = false
        while true {
            if closed { return 0 }
            if let total = resource.totalLength, position >= total { return 0 }
            if let version, let head = resource.head, !version.matches(head.validator) {
                throw MediaError(
                    .contentChanged, url: url, operation: .read,
                    reason: "the resource changed on the server after this reader read part of it")
            }
            let count = cache.copy(resource, at: position, into: buffer)
            if count > 0 {
                if version == nil { version = resource.head?.validator }
                position += Int64(count)
                cache.statistics.bytesRead += Int64(count)
                if !waited { cache.statistics.bytesReadFromCache += Int64(count) }
                updateInterest()
                return count
            }
            try ensureFetch(resource)
            waited = true
            wait()
        }
    }

    public func seek(to offset: Int64) throws(MediaError) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        position = max(offset, 0)
        updateInterest()
    }

    /// The resource's length: known from the cache, or from the first response (waiting for it).
    public var size: Int64? {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        let resource = cache.resource(url)
        while !closed {
            if let total = resource.totalLength { return total }
            if resource.head != nil || resource.failure.map({ $0.serial > failuresSeen }) == true { return nil }
            if resource.fetches.isEmpty {
                Fetch.begin(
                    cache: cache, resource: resource, transport: transport, start: position,
                    end: nil, priority: priority)
            }
            wait()
        }
        return nil
    }

    public func close() {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard !closed else { return }
        closed = true
        let resource = cache.resource(url)
        resource.readers.removeValue(forKey: ObjectIdentifier(self))
        for fetch in resource.fetches { fetch.pace(cancelling: true) }
        cache.signal()
    }

    // MARK: Progress

    public var progress: ByteSourceProgress {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        let resource = cache.resource(url)
        let held = cache.ranges(of: url)
        let ahead = held.first { $0.contains(position) }.map { $0.upperBound - position } ?? 0
        return ByteSourceProgress(
            position: position, contiguousAhead: ahead, totalLength: resource.totalLength,
            bytesPerSecond: resource.rate.bytesPerSecond, heldRanges: held,
            isTransferring: resource.fetches.contains { !$0.isPaused },
            bytesTransferred: resource.bytesFetched,
            timeToFirstByte: resource.firstByteArrived.flatMap { first in
                resource.firstTransferStarted.map { first - $0 }
            })
    }

    /// Makes this reader's fetches playback or prefetch from now on (a prepared player's item becoming the one
    /// that plays).
    public func setPriority(_ priority: TransferPriority) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        self.priority = priority
        updateInterest()
    }

    /// Bounds the fetches begun for this reader from now on: they ask for bytes before `end` only, so that a reader
    /// that knows where its need ends (a poster: the header and the first keyframe's samples, from the sample index)
    /// has no transfer run past it. A read at or past `end` fetches one read-ahead from where it reads. Nil: fetches
    /// run to the next bytes held (or the end).
    public func setFetchLimit(_ end: Int64?) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        fetchLimit = end
    }

    /// This reader's priority.
    public var currentPriority: TransferPriority {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        return priority
    }

    public func setReadAhead(_ bytes: Int64) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        readAhead = max(bytes, Self.minimumReadAhead)
        updateInterest()
    }

    // MARK: ClockPacedByteSource

    public var isPacedByClock: Bool { transport.isPacedByClock }

    public var isWaitingForClock: Bool {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        return transport.isPacedByClock && waitingSince == cache.changes
    }

    public func observeWaitingForClock(_ observer: @escaping @Sendable () -> Void) {
        cache.condition.lock()
        waitingObservers.append(observer)
        cache.condition.unlock()
    }

    // MARK: Locked

    /// Tells the resource where this reader is and how far ahead it wants bytes, and lets paused fetches go on.
    private func updateInterest() {
        guard !closed else { return }
        let resource = cache.resource(url)
        resource.readers[ObjectIdentifier(self)] = CachedResource.Interest(
            position: position, readAhead: readAhead,
            priority: priority)
        for fetch in resource.fetches { fetch.pace() }
    }

    /// Makes sure a fetch will bring the byte at `position`: one under way that reaches it soon, or a new one
    /// from it up to the next bytes already held.
    private func ensureFetch(_ resource: CachedResource) throws(MediaError) {
        if let failure = resource.failure, failure.serial > failuresSeen, position >= failure.position,
            failure.end.map({ position < $0 }) ?? true
        {
            failuresSeen = failure.serial
            throw failure.error
        }
        if let coming = resource.fetches.first(where: {
            $0.covers(position) && position - $0.position <= Fetch.joinWindow
        }) {
            coming.resumeForReader(priority: priority)
            return
        }
        if let head = resource.head, !head.acceptsRanges, position > 0 {
            // A server without ranges sends the file from its start only: wait for the transfer that streams it.
            if resource.fetches.contains(where: { $0.covers(position) }) { return }
            throw MediaError(
                .rangeNotSupported, url: url, operation: .seek,
                reason: "reading from byte \(position) needs a byte range, which the server does not serve")
        }
        let nextHeld = cache.ranges(of: url).first { $0.lowerBound > position }?.lowerBound
        let bound = fetchLimit.map { $0 > position ? $0 : position + readAhead }
        let end = [nextHeld, bound].compactMap { $0 }.min()
        resource.failure = nil
        Fetch.begin(
            cache: cache, resource: resource, transport: transport, start: position, end: end,
            priority: priority)
    }

    /// Waits for a change (bytes, an end, a failure, a close); readers waiting for a clock-paced transport first
    /// tell their observers (with the lock released: an observer takes a player's lock).
    private func wait() {
        let seen = cache.changes
        waitingSince = seen
        defer { waitingSince = nil }
        if transport.isPacedByClock, !waitingObservers.isEmpty {
            let observers = waitingObservers
            cache.condition.unlock()
            for observer in observers { observer() }
            cache.condition.lock()
            if cache.changes != seen { return }
        }
        cache.condition.wait()
    }
}
