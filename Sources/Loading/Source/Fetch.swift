import Foundation

/// One fetch filling a resource's chunks from `start` to `end` (or the resource's end), through one transfer at a
/// time. It checks that the server sends what was asked (the range, the same version), pauses when it runs too far
/// ahead of the readers it serves, gives way to playback while a player claims the link (a fetch that serves no
/// playback reader pauses), resumes a dropped connection where it stopped (the same version only, after a delay),
/// and records a failure for the readers when it cannot go on. Its state is guarded by the cache's lock.
///
/// A pause ends the transfer and a resume starts another from where the fetch stopped (`If-Range`), when the
/// server serves ranges: a paused transfer would keep its connection, and the loader's connections to a host are
/// few (``HTTPLoader``'s `maximumConnectionsPerHost`): paused transfers holding all of them starved every other
/// transfer to that host, the ones their own readers waited for included (a deadlock PausedFetchTests found). A
/// transfer from a server without ranges cannot be resumed elsewhere than at the start, so it is paused instead.
final class Fetch: @unchecked Sendable {
    let cache: ByteCache
    let resource: CachedResource
    let transport: any Transport
    let start: Int64
    let end: Int64?
    /// The priority it was started with; while it serves readers, theirs (playback if one of them is).
    let basePriority: TransferPriority
    private(set) var priority: TransferPriority
    /// The next byte it will write.
    private(set) var position: Int64
    /// Paused: because it ran far enough ahead of its readers, or because playback claims the link.
    private var pausedForReadAhead = false
    private var pausedForLink = false
    var isPaused: Bool { pausedForReadAhead || pausedForLink }
    private var finished = false
    /// Told once when it ends: nil when it got what it asked for (prefetches report this way).
    var onFinish: FetchCompletion?
    /// The transfer under way and the sink it feeds; nil while paused or waiting to retry.
    private var handle: (any TransferHandle)?
    private var sink: Sink?
    /// Where the transfer under way starts.
    private var requestStart: Int64
    /// A retry is scheduled (after a dropped connection).
    private var retryPending = false
    /// Retries left: reset when a transfer brings bytes, so it counts failed attempts in a row.
    private var retriesLeft = Fetch.maximumRetries
    /// Whether the server answered this fetch once (a refused connection afterwards may be a restart).
    private var answered = false
    /// A failure decided here (a range or version the server would not give).
    private var refusal: MediaError?

    /// How many times in a row a dropped transfer is resumed before its error is reported.
    static let maximumRetries = 3

    /// Seconds before retry `attempt` (0, 1, 2): 0.5, 1, 2. A server that dropped the connection because it is
    /// restarting refuses connections for a moment; retrying at once would fail three times in a few milliseconds.
    static func retryDelay(attempt: Int) -> Double { 0.5 * Double(1 << attempt) }

    private init(
        cache: ByteCache, resource: CachedResource, transport: any Transport, start: Int64, end: Int64?,
        priority: TransferPriority
    ) {
        self.cache = cache
        self.resource = resource
        self.transport = transport
        self.start = start
        self.end = end
        self.basePriority = priority
        self.priority = priority
        self.position = start
        self.requestStart = start
    }

    /// Locked: starts a fetch of `resource` from `start` to `end` through `transport`.
    @discardableResult
    static func begin(
        cache: ByteCache, resource: CachedResource, transport: any Transport, start: Int64, end: Int64?,
        priority: TransferPriority
    ) -> Fetch {
        let fetch = Fetch(
            cache: cache, resource: resource, transport: transport, start: start, end: end, priority: priority)
        cache.statistics.fetchesStarted += 1
        resource.fetches.append(fetch)
        if priority == .prefetch && cache.linkClaimed {
            // Held before it asks for anything: a transfer started and paused at once still has the server send a
            // socket buffer's worth, which waits in the link's queue ahead of the playback that claims it. It
            // starts when the claim ends (`pace()`).
            fetch.pausedForLink = true
        } else {
            fetch.startTransfer()
        }
        fetch.pace()
        return fetch
    }

    /// Locked: starts a transfer from `position`; one that continues the fetch asks for the same version only.
    private func startTransfer() {
        if resource.firstTransferStarted == nil { resource.firstTransferStarted = transport.currentTime() }
        let sink = Sink(fetch: self)
        self.sink = sink
        requestStart = position
        refusal = nil
        cache.statistics.transfersStarted += 1
        let validator = position > start ? resource.head?.validator : nil
        handle = transport.start(
            TransferRequest(url: resource.url, start: position, end: end, validator: validator, priority: priority),
            sink: sink)
    }

    /// Locked: ends the transfer under way, if any (what it still delivers is dropped).
    private func stopTransfer() {
        sink = nil
        handle?.cancel()
        handle = nil
    }

    /// Locked: whether it is writing into chunk `index` now (or will when it resumes).
    func isFilling(chunk index: Int) -> Bool {
        !finished && Int(position / Int64(ByteCache.chunkSize)) == index
    }

    /// Locked: whether it will bring the byte at `offset` (before the end it was asked for).
    func covers(_ offset: Int64) -> Bool {
        !finished && offset >= position && end.map { offset < $0 } ?? true
    }

    /// Locked: pauses or resumes for one reason; it moves when neither holds it.
    private func update(readAhead: Bool? = nil, link: Bool? = nil) {
        guard !finished else { return }
        let was = isPaused
        if let readAhead { pausedForReadAhead = readAhead }
        if let link { pausedForLink = link }
        guard isPaused != was else { return }
        if isPaused {
            // Ends the transfer, or pauses it when the server serves no ranges.
            if !resource.fetches.contains(where: { !$0.isPaused && !$0.finished }) { resource.rate.pause() }
            if resource.head?.acceptsRanges == true {
                stopTransfer()
            } else {
                handle?.setPaused(true)
            }
        } else if let handle {
            handle.setPaused(false)
        } else if !retryPending {
            if reachedEnd {
                // Paused between its last byte and its transfer's end: every byte is here, and another transfer
                // would ask for a range past the end (a 416 the readers would take for a failure).
                finish(nil)
                cache.signal()
            } else {
                // Another transfer from `position`.
                startTransfer()
            }
        }
    }

    /// Locked: lets a reader that waits for it have it now (no read-ahead pause; a link pause holds unless the
    /// reader is playback).
    func resumeForReader(priority readerPriority: TransferPriority) {
        if readerPriority > priority { priority = readerPriority }
        update(readAhead: false, link: priority == .prefetch && cache.linkClaimed)
    }

    /// Locked: ends the fetch (nobody reads what it brings).
    func cancel() {
        guard !finished else { return }
        finished = true
        resource.fetches.removeAll { $0 === self }
        stopTransfer()
        cache.signal()
        report(MediaError(.cancelled, url: resource.url, operation: .read, reason: "cancelled"))
    }

    /// How far ahead of a fetch's position a reader waits for it rather than starting a fetch of its own.
    static let joinWindow: Int64 = 512 << 10

    /// The end of a file where a demuxer reads an index stored after the media (an MP4's moov at its end): its last
    /// 1/16, at least 1 MB.
    static func tailWindow(of total: Int64) -> Int64 { max(1 << 20, total / 16) }

    /// Locked: whether `reader` reads the resource's tail, ahead of this fetch, which began at the file's start and
    /// has its whole length to go (a reader of the index after the media, who will be back for the media data).
    private func readsTail(_ reader: CachedResource.Interest) -> Bool {
        guard start == 0, end == nil, let total = resource.totalLength else { return false }
        return reader.position > position + Self.joinWindow && total - reader.position <= Self.tailWindow(of: total)
    }

    /// Locked: pauses when it is more than its readers' read-ahead past the one it serves that reads farthest;
    /// resumes when back within half of it. The readers it serves are those behind it (from a chunk before its
    /// start) or waiting just ahead of it. With `cancelling`, a playback fetch that serves no reader any more (they
    /// moved away or left) stops: that is decided only as its bytes arrive (or a reader leaves), never on a reader's
    /// move, because while two readers move in turn the first move may look like no one is left.
    func pace(cancelling: Bool = false) {
        guard !finished else { return }
        let served = resource.readers.values.compactMap { reader -> CachedResource.Interest? in
            if reader.position >= start - Int64(ByteCache.chunkSize) && reader.position <= position + Self.joinWindow {
                return reader
            }
            // A reader that jumped ahead into the file's tail (an MP4 whose index is at its end: the demuxer reads
            // it, then comes back to the media data) stands where this fetch began: the fetch goes on instead of
            // being cut off with a link's worth of bytes in flight, paid again when the reader is back.
            guard readsTail(reader) else { return nil }
            var back = reader
            back.position = start
            return back
        }
        // Its readers' priority while it serves any (playback if one is), else what it was started as. A reader
        // lowered to prefetch (a feed's item on screen giving the link to the next item's start) lowers the fetch
        // it began with playback priority: it held on to playback before, and over a shaped link the prepared
        // item got 20 KB a second beside it.
        if served.isEmpty {
            priority = basePriority
        } else {
            priority = served.contains { $0.priority == .playback } ? .playback : .prefetch
        }
        let holdForLink = priority == .prefetch && cache.linkClaimed
        guard let lead = served.max(by: { $0.position < $1.position }) else {
            // A fetch begun for readers (whatever its priority) ends with them; a prefetch's goes on.
            if cancelling && onFinish == nil { cancel() }
            update(link: holdForLink)
            return
        }
        let ahead = position - lead.position
        if !pausedForReadAhead && ahead > lead.readAhead && !reachedEnd {
            update(readAhead: true, link: holdForLink)
        } else if pausedForReadAhead && ahead <= lead.readAhead / 2 {
            update(readAhead: false, link: holdForLink)
        } else {
            update(link: holdForLink)
        }
    }

    // MARK: The current transfer's sink (the transport's thread)

    /// Receives one transfer of a fetch and passes it on while that transfer is the fetch's current one: an ended
    /// transfer's cancel is asynchronous, and its late head or bytes must not be taken for the next one's.
    private final class Sink: TransferSink, @unchecked Sendable {
        let fetch: Fetch

        init(fetch: Fetch) { self.fetch = fetch }

        func transferReceived(head: ResponseHead) -> Bool { fetch.received(head, from: self) }
        func transferReceived(_ bytes: UnsafeRawBufferPointer) { fetch.received(bytes, from: self) }
        func transferFinished(_ error: MediaError?) { fetch.finished(error, from: self) }
    }

    private func received(_ head: ResponseHead, from sender: Sink) -> Bool {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard sender === sink, !finished else { return false }
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
        if head.start != requestStart {
            cache.setHead(
                resource,
                CachedResource.Head(
                    totalLength: received.totalLength,
                    validator: received.validator, acceptsRanges: false))
            refusal = MediaError(
                .rangeNotSupported, url: resource.url, operation: .seek,
                reason: "asked for bytes from \(requestStart), the server sent the whole file (\(head.status))")
            return false
        }
        answered = true
        if known == nil || known?.totalLength == nil && received.totalLength != nil || known != received {
            cache.setHead(resource, received)
        }
        return true
    }

    private func received(_ bytes: UnsafeRawBufferPointer, from sender: Sink) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        cache.countReceived(bytes.count, for: resource.url)
        guard sender === sink, !finished else { return }
        let now = transport.currentTime()
        if resource.firstByteArrived == nil { resource.firstByteArrived = now }
        var count = bytes.count
        if let end { count = min(count, Int(max(end - position, 0))) }
        cache.write(resource, UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: position)
        position += Int64(count)
        resource.bytesFetched += Int64(count)
        resource.rate.add(count, at: now)
        if count > 0 { retriesLeft = Self.maximumRetries }
        if end == nil, let total = resource.totalLength, position < total, isHeldInMemory(position),
            cache.ranges(of: resource.url).first(where: { $0.contains(position) })?.upperBound == total
        {
            // The rest is held (a reader fetched the tail first, as a demuxer does for an index at the end): done,
            // without asking for it again.
            stopTransfer()
            finish(nil)
            cache.signal()
            return
        }
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

    private func finished(_ error: MediaError?, from sender: Sink) {
        cache.condition.lock()
        defer { cache.condition.unlock() }
        guard sender === sink, !finished else { return }
        sink = nil
        handle = nil
        defer { cache.signal() }
        let outcome = refusal ?? error
        if let outcome, refusal == nil, !reachedEnd, retriesLeft > 0, isRetryable(outcome.kind),
            resource.head?.acceptsRanges == true
        {
            // Dropped mid-way: resume where it stopped, for the same version only (If-Range), after a delay. The
            // fetch stays in the resource's fetches meanwhile, so readers wait for it rather than start their own.
            let attempt = Self.maximumRetries - retriesLeft
            retriesLeft -= 1
            // A link that follows a manual clock has no real time to wait in: it resumes at once (the resume starts
            // at the link's time, so the trace stays the same every run).
            if transport.isPacedByClock {
                if !isPaused { startTransfer() }
                return
            }
            retryPending = true
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.retryDelay(attempt: attempt)) { [self] in
                cache.condition.lock()
                defer { cache.condition.unlock() }
                retryPending = false
                guard !finished, !isPaused, handle == nil else { return }
                startTransfer()
            }
            return
        }
        finish(outcome)
    }

    /// Locked: ends the fetch with `outcome` (nil: it brought what it was asked for) and tells its readers.
    private func finish(_ outcome: MediaError?) {
        finished = true
        resource.fetches.removeAll { $0 === self }
        if !resource.fetches.contains(where: { !$0.isPaused }) { resource.rate.pause() }
        guard let outcome else {
            if end == nil, resource.totalLength == nil { resource.endReached = position }
            report(nil)
            return
        }
        resource.failures += 1
        // Another version on the server: every byte a reader read belongs to the old one, wherever it reads now.
        let from = outcome.kind == .contentChanged ? 0 : position
        resource.failure = (from, outcome.kind == .contentChanged ? nil : end, outcome, resource.failures)
        report(outcome)
    }

    /// Locked: tells `onFinish` how it ended, once.
    private func report(_ outcome: MediaError?) {
        guard let completion = onFinish else { return }
        onFinish = nil
        completion.complete(outcome)
    }

    /// Locked: whether the byte at `offset` is in a chunk in memory already (a cheap look, on every delivery, before
    /// the merge of every held range that tells whether the rest is held to the end).
    private func isHeldInMemory(_ offset: Int64) -> Bool {
        let chunk = resource.chunks[Int(offset / Int64(ByteCache.chunkSize))]
        return chunk?.contains(Int(offset % Int64(ByteCache.chunkSize))) ?? false
    }

    /// Whether it brought every byte it was asked for (its transfer is about to finish: it is not paused).
    private var reachedEnd: Bool {
        end.map { position >= $0 } ?? (resource.totalLength.map { position >= $0 } ?? false)
    }

    /// Whether a transfer that failed with `kind` may be resumed: a lost connection or a stall, and a refused
    /// connection once the server answered this fetch (it went away mid-way, perhaps to restart).
    private func isRetryable(_ kind: MediaError.Kind) -> Bool {
        kind == .connectionLost || kind == .timedOut || kind == .connectionRefused && answered
    }
}
