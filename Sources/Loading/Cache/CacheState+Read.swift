/// One reader of a resource (a ``RemoteByteSource``), as the cache's state keeps it.
struct ReaderState {
    let url: String
    let transport: any Transport
    /// Playback, or prefetch: a prefetch reader's fetches give way while a player claims the link.
    var priority: TransferPriority
    /// The HTTP header fields its fetches send.
    var headers: [String: String] = [:]
    var position: Int64 = 0
    var readAhead: Int64
    /// The version of the resource this reader read (its validator), once it read a byte: it never reads bytes of
    /// another. A fetch that meets a new version drops the cached bytes, and a fetch started afterwards (for this
    /// reader or another) brings the new version's: without this, a reader behind the failed fetch went on reading
    /// the new version after the old (ServerFaultTests found a file spliced from two versions, with no error).
    var version: ResourceValidator?
    /// The serial of the last fetch failure this reader saw (or that happened before it was opened).
    var failuresSeen: UInt64
    /// Where the fetches begun for this reader end at the latest.
    var fetchLimit: Int64?
    /// While it waits: the change count when it began (a change since means it is about to go on).
    var waitingSince: UInt64?
    var waitingObservers: [@Sendable () -> Void] = []
}

/// What a read is answered with.
enum ReadAnswer {
    /// This many bytes were copied.
    case bytes(Int)
    /// The resource ends here, or the reader is closed.
    case end
    case failed(MediaError)
    /// The bytes are in a disk chunk: load it (outside the lock) and read again.
    case load(MemoryTier.Key)
    /// Nothing yet: wait for a change after this count, then read again.
    case wait(UInt64)
}

extension CacheState {
    /// Registers a reader of `url` at byte 0.
    mutating func openReader(
        _ url: String, transport: any Transport, priority: TransferPriority, readAhead: Int64,
        headers: [String: String] = [:]
    ) -> ReaderID {
        touch(url)
        let id = ReaderID(value: nextNumber())
        readers[id] = ReaderState(
            url: url, transport: transport, priority: priority, headers: headers, readAhead: readAhead,
            failuresSeen: resources[url]?.failures ?? 0)
        updateInterest(id)
        return id
    }

    /// Tells the resource where the reader is and how far ahead it wants bytes, and lets paused fetches go on.
    mutating func updateInterest(_ id: ReaderID) {
        guard let reader = readers[id] else { return }
        touch(reader.url)
        resources[reader.url]?.readers[id] = ReaderInterest(
            position: reader.position, readAhead: reader.readAhead, priority: reader.priority)
        paceFetches(of: reader.url)
    }

    /// Reads at the reader's position into `buffer`: bytes held, or where they are, or a failure, or a wait for
    /// the fetch that will bring them (started here when none will). `waited`: the reader waited for these bytes.
    /// `loaded`: a disk chunk the reader loaded for this read, read from whether or not memory kept it (a memory
    /// tier full of chunks being filled evicts the chunk it just took, and the reader would load it again forever).
    mutating func read(
        _ id: ReaderID, into buffer: UnsafeMutableRawBufferPointer, waited: Bool,
        loaded: (key: MemoryTier.Key, chunk: ChunkBuffer)? = nil
    ) -> ReadAnswer {
        guard let reader = readers[id] else { return .end }
        let resource = resource(reader.url)
        if let total = resource.totalLength, reader.position >= total { return .end }
        if let version = reader.version, let head = resource.head, !version.matches(head.validator) {
            return .failed(
                MediaError(
                    .contentChanged, url: reader.url, operation: .read,
                    reason: "the resource changed on the server after this reader read part of it"))
        }
        if let gate = freshnessGate(id) { return gate }
        var held = copy(reader.url, at: reader.position, into: buffer)
        if case .onDisk(let key) = held, let loaded, loaded.key == key {
            install(loaded.chunk, key)
            let offset = Int(reader.position % Int64(ByteCache.chunkSize))
            held = loaded.chunk.contains(offset) ? .inMemory(loaded.chunk.read(at: offset, into: buffer)) : .nowhere
        }
        switch held {
        case .inMemory(let count) where count > 0:
            if reader.version == nil { readers[id]?.version = resource.head?.validator }
            readers[id]?.position += Int64(count)
            statistics.bytesRead += Int64(count)
            if !waited { statistics.bytesReadFromCache += Int64(count) }
            updateInterest(id)
            return .bytes(count)
        case .onDisk(let key): return .load(key)
        case .inMemory, .nowhere: break
        }
        if let error = ensureFetch(id) { return .failed(error) }
        return .wait(changes)
    }

    /// Makes sure a fetch will bring the byte at the reader's position: one under way that reaches it soon, or a
    /// new one from it up to the next bytes already held. A failure recorded there that the reader has not seen
    /// is its answer.
    private mutating func ensureFetch(_ id: ReaderID) -> MediaError? {
        guard let reader = readers[id], let resource = resources[reader.url] else { return nil }
        let position = reader.position
        if let failure = resource.failure, failure.serial > reader.failuresSeen, position >= failure.position,
            failure.end.map({ position < $0 }) ?? true
        {
            readers[id]?.failuresSeen = failure.serial
            return failure.error
        }
        if let coming = resource.fetches.first(where: { id in
            fetches[id].map { $0.machine.covers(position) && position - $0.machine.position <= FetchMachine.joinWindow }
                ?? false
        }) {
            step(coming, .readerWaits(reader.priority))
            return nil
        }
        if let draining = fetches.first(where: { _, record in
            let machine = record.machine
            return machine.url == reader.url && machine.phase == .draining && position >= machine.position
                && position - machine.position <= FetchMachine.joinWindow
                && (machine.transferEnd.map { position < $0 } ?? false)
        })?.key {
            // The range a fetch its readers left still brings: it serves this reader.
            step(draining, .revive)
            resources[reader.url]?.fetches.append(draining)
            step(draining, .readerWaits(reader.priority))
            return nil
        }
        if let head = resource.head, !head.acceptsRanges, position > 0 {
            // A server without ranges sends the file from its start only: wait for the transfer that streams it.
            if resource.fetches.contains(where: { fetches[$0]?.machine.covers(position) ?? false }) { return nil }
            return MediaError(
                .rangeNotSupported, url: reader.url, operation: .seek,
                reason: "reading from byte \(position) needs a byte range, which the server does not serve")
        }
        let nextHeld = ranges(of: reader.url).first { $0.lowerBound > position }?.lowerBound
        let bound = reader.fetchLimit.map { $0 > position ? $0 : position + reader.readAhead }
        let end = [nextHeld, bound].compactMap { $0 }.min()
        resources[reader.url]?.failure = nil
        beginFetch(
            reader.url, start: position, end: end, priority: reader.priority, transport: reader.transport,
            headers: reader.headers)
        return nil
    }

    /// The resource's length when known; nil when a response or a failure came without it; otherwise a wait (a
    /// fetch from the reader's position is begun when none runs).
    mutating func size(_ id: ReaderID) -> (known: Bool, length: Int64?, seen: UInt64) {
        guard let reader = readers[id] else { return (true, nil, changes) }
        touch(reader.url)
        if case .wait(let seen)? = freshnessGate(id) { return (false, nil, seen) }
        let resource = resource(reader.url)
        if let total = resource.totalLength { return (true, total, changes) }
        if resource.head != nil || resource.failure.map({ $0.serial > reader.failuresSeen }) == true {
            return (true, nil, changes)
        }
        if resource.fetches.isEmpty {
            beginFetch(
                reader.url, start: reader.position, end: nil, priority: reader.priority, transport: reader.transport,
                headers: reader.headers)
        }
        return (false, nil, changes)
    }

    /// The reader leaves: fetches that served only it stop.
    mutating func closeReader(_ id: ReaderID) {
        guard let reader = readers.removeValue(forKey: id) else { return }
        resources[reader.url]?.readers.removeValue(forKey: id)
        paceFetches(of: reader.url, cancelling: true)
        useEnded(reader.url)
        evict()
        signal()
    }

    /// What the reader's progress reports.
    mutating func progress(_ id: ReaderID, url: String) -> ByteSourceProgress {
        let position = readers[id]?.position ?? 0
        let resource = resource(url)
        let held = ranges(of: url)
        let ahead = held.first { $0.contains(position) }.map { $0.upperBound - position } ?? 0
        return ByteSourceProgress(
            position: position, contiguousAhead: ahead, totalLength: resource.totalLength,
            bytesPerSecond: resource.rate.bytesPerSecond, heldRanges: held,
            isTransferring: resource.fetches.contains { fetches[$0]?.machine.isPaused == false },
            bytesTransferred: resource.bytesFetched,
            timeToFirstByte: resource.firstByteArrived.flatMap { first in
                resource.firstTransferStarted.map { first - $0 }
            })
    }
}
