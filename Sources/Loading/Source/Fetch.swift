import Dispatch

/// One transfer filling a resource's chunks from `start` to `end` (or the resource's end): the sink the transport
/// feeds. It checks that the server sends what was asked (the range, the same version), pauses when it runs too
/// far ahead of the readers it serves, gives way to playback while a player claims the link (a fetch that serves
/// no playback reader pauses within the chunk it is writing), resumes a dropped connection where it stopped (the
/// same version only), and records a failure for the readers when it cannot go on. Its state is guarded by the
/// cache's lock.
final class Fetch: TransferSink, @unchecked Sendable {
    let cache: ByteCache
    let resource: CachedResource
    let transport: any Transport
    let start: Int64
    let end: Int64?
    /// The priority it was started with (a prefetch's), raised to playback while it serves a playback reader.
    let basePriority: TransferPriority
    private(set) var priority: TransferPriority
    /// The next byte it will write.
    private(set) var position: Int64
    /// Paused: because it ran far enough ahead of its readers, or because playback claims the link.
    private var pausedForReadAhead = false
    private var pausedForLink = false
    var isPaused: Bool { pausedForReadAhead || pausedForLink }
    /// Told once when it ends: nil when it got what it asked for (prefetches report this way).
    var onFinish: FetchCompletion?
    private var handle: (any TransferHandle)?
    /// Resumes left after dropped connections.
    private let retries: Int
    /// A failure decided here (a range or version the server would not give).
    private var refusal: MediaError?
    private var finished = false

    /// How many times a dropped transfer is resumed before its error is reported.
    static let maximumRetries = 3

    private init(
        cache: ByteCache, resource: CachedResource, transport: any Transport, start: Int64, end: Int64?,
        priority: TransferPriority, retries: Int
    ) {
        self.cache = cache
        self.resource = resource
        self.transport = transport
        self.start = start
        self.end = end
        self.basePriority = priority
        self.priority = priority
        self.position = start
        self.retries = retries
    }

    /// Locked: starts a fetch of `resource` from `start` to `end` through `transport`.
    @discardableResult
    static func begin(
        cache: ByteCache, resource: CachedResource, transport: any Transport, start: Int64, end: Int64?,
        priority: TransferPriority, retries: Int = maximumRetries, resuming: Bool = false
    ) -> Fetch {
        let fetch = Fetch(
            cache: cache, resource: resource, transport: transport, start: start, end: end,
            priority: priority, retries: retries)
        resource.fetches.append(fetch)
        if resource.firstTransferStarted == nil { resource.firstTransferStarted = transport.currentTime() }
        cache.statistics.transfersStarted += 1
        let validator = resuming ? resource.head?.validator : nil
        fetch.handle = transport.start(
            TransferRequest(url: resource.url, start: start, end: end, validator: validator, priority: priority),
            sink: fetch)
        fetch.pace()
        return fetch
    }

    /// Locked: whether it is writing into chunk `index` now.
    func isFilling(chunk index: Int) -> Bool {
        !finished && Int(position / Int64(ByteCache.chunkSize)) == index
    }

    /// Locked: whether it will bring the byte at `offset` (before the end it was asked for).
    func covers(_ offset: Int64) -> Bool {
        !finished && offset >= position && end.map { offset < $0 } ?? true
    }

    /// Locked: pauses or resumes the transfer for one reason; it moves when neither holds it.
    private func update(readAhead: Bool? = nil, link: Bool? = nil) {
        guard !finished else { return }
        let was = isPaused
        if let readAhead { pausedForReadAhead = readAhead }
        if let link { pausedForLink = link }
        guard isPaused != was else { return }
        if isPaused && !resource.fetches.contains(where: { !$0.isPaused && !$0.finished }) {
            resource.rate.pause()
        }
        handle?.setPaused(isPaused)
    }

    /// Locked: lets a reader that waits for it have it now (no read-ahead pause; a link pause holds unless the
    /// reader is playback).
    func resumeForReader(priority readerPriority: TransferPriority) {
        if readerPriority > priority { priority = readerPriority }
        update(readAhead: false, link: priority == .prefetch && cache.linkClaimed)
    }

    /// Locked: ends the transfer (nobody reads what it brings).
    func cancel() {
        guard !finished else { return }
        finished = true
        resource.fetches.removeAll { $0 === self }
        handle?.cancel()
        cache.signal()
        report(MediaError(.cancelled, url: resource.url, operation: .read, reason: "cancelled"))
    }

    /// How far ahead of a fetch's position a reader waits for it rather than starting a fetch of its own.
    static let joinWindow: Int64 = 512 << 10

    /// Locked: pauses when it is more than its readers' read-ahead past the one it serves that reads farthest;
    /// resumes when back within half of it. The readers it serves are those behind it (from a chunk before its
    /// start) or waiting just ahead of it. With `cancelling`, a playback fetch that serves no reader any more (they
    /// moved away or left) stops: that is decided only as its bytes arrive (or a reader leaves), never on a reader's
    /// move, because while two readers move in turn the first move may look like no one is left.
    func pace(cancelling: Bool = false) {
        guard !finished else { return }
        let served = resource.readers.values.filter { reader in
            reader.position >= start - Int64(ByteCache.chunkSize) && reader.position <= position + Self.joinWindow
        }
        // Playback if it serves a playback reader, else what it was started as.
        priority = served.contains { $0.priority == .playback } ? .playback : basePriority
        let holdForLink = priority == .prefetch && cache.linkClaimed
        guard let lead = served.max(by: { $0.position < $1.position }) else {
            // A fetch begun for readers (whatever its priority) ends with them; a prefetch's goes on.
            if cancelling && onFinish == nil { cancel() }
            update(link: holdForLink)
            return
        }
        let ahead = position - lead.position
        if !pausedForReadAhead && ahead > lead.readAhead {
            update(readAhead: true, link: holdForLink)
        } else if pausedForReadAhead && ahead <= lead.readAhead / 2 {
            update(readAhead: false, link: holdForLink)
        } else {
            update(link: holdForLink)
        }
    }

    // MARK: TransferSink (the transport's thread)

    func transferReceived(head: ResponseHead) -> Bool {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard !finished else { return false }
        let known = resource.head
        let received = CachedResource.Head(
            totalLength: head.totalLength ?? known?.totalLength,
            validator: head.validator, acceptsRanges: head.acceptsRanges)
        if let known, !known.validator.isEmpty, !known.validator.matches(head.validator) {
            // Another version of the resource than the one cached or being read.
            refusal = MediaError(
                .contentChanged, url: resource.url, operation: .read,
                reason: "the server sends another version (ETag/Last-Modified changed)")
            cache.purge(resource.url)
            return false
        }
        if head.start != start {
            cache.setHead(
                resource,
                CachedResource.Head(
                    totalLength: received.totalLength,
                    validator: received.validator, acceptsRanges: false))
            refusal = MediaError(
                .rangeNotSupported, url: resource.url, operation: .seek,
                reason: "asked for bytes from \(start), the server sent the whole file (\(head.status))")
            return false
        }
        if known == nil || known?.totalLength == nil && received.totalLength != nil || known != received {
            cache.setHead(resource, received)
        }
        return true
    }

    func transferReceived(_ bytes: UnsafeRawBufferPointer) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard !finished else { return }
        let now = transport.currentTime()
        if resource.firstByteArrived == nil { resource.firstByteArrived = now }
        var count = bytes.count
        if let end { count = min(count, Int(max(end - position, 0))) }
        cache.write(resource, UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: position)
        position += Int64(count)
        resource.bytesFetched += Int64(count)
        resource.rate.add(count, at: now)
        cache.signal()
        pace(cancelling: true)
    }

    func deliveryBegan() {
        cache.condition.lock()
        cache.holdSignals()
        cache.condition.unlock()
    }

    func deliveryEnded() {
        cache.condition.lock()
        cache.releaseSignals()
        cache.condition.unlock()
    }

    func transferFinished(_ error: MediaError?) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard !finished else { return }
        finished = true
        resource.fetches.removeAll { $0 === self }
        if !resource.fetches.contains(where: { !$0.isPaused }) { resource.rate.pause() }
        defer { cache.signal() }
        let outcome = refusal ?? error
        guard let outcome else {
            if end == nil, resource.totalLength == nil { resource.endReached = position }
            report(nil)
            return
        }
        let reachedEnd = end.map { position >= $0 } ?? (resource.totalLength.map { position >= $0 } ?? false)
        if refusal == nil, !reachedEnd, retries > 0, outcome.kind == .connectionLost || outcome.kind == .timedOut,
            resource.head?.acceptsRanges == true
        {
            // Dropped mid-way: resume where it stopped, for the same version only (If-Range).
            let resumed = Fetch.begin(
                cache: cache, resource: resource, transport: transport, start: position, end: end,
                priority: basePriority, retries: retries - 1, resuming: true)
            resumed.onFinish = onFinish
            onFinish?.fetch = resumed
            onFinish = nil
            return
        }
        resource.failure = (position, end, outcome)
        report(outcome)
    }

    /// Locked: tells `onFinish` how it ended, once.
    private func report(_ outcome: MediaError?) {
        guard let completion = onFinish else { return }
        onFinish = nil
        completion.complete(outcome)
    }
}
