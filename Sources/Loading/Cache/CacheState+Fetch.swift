/// The fetches: each input goes to its ``FetchMachine``, and what the machine decides is carried out on the state
/// (writes, records) or queued for after the lock (the transport's calls).
extension CacheState {
    /// The facts a fetch decides with.
    func context(_ record: FetchRecord) -> FetchMachine.Context {
        let resource = resources[record.machine.url]
        let rate = resource?.rate.bytesPerSecond
        return FetchMachine.Context(
            head: resource?.head, linkClaimed: linkClaims > 0, pacedByClock: record.transport.isPacedByClock,
            transferBytes: Self.transferBytes(priority: record.machine.priority, rate: rate),
            inFlightBytes: Self.inFlightBytes(rate: rate, pacedByClock: record.transport.isPacedByClock))
    }

    /// About how many bytes of a transfer are on their way: none over a link that follows a manual clock (it
    /// delivers what the clock gives, nothing waits in a queue); over a real one, up to a second of its rate (a
    /// chunk before a measurement): a shaped or cellular link's queue holds that much (measured on the 8 Mbit/s
    /// shaped loopback: each transfer cut at a swipe had passed about 400 KB more than it delivered).
    static func inFlightBytes(rate: Double?, pacedByClock: Bool) -> Int64 {
        guard !pacedByClock else { return 0 }
        return min(max(Int64(rate ?? 0), FetchMachine.minimumTransferBytes), FetchMachine.maximumTransferBytes)
    }

    /// The range one transfer asks for: a chunk for a prefetch (it gives way within a chunk when playback claims
    /// the link), half a second of the measured rate for playback (a chunk before a measurement), at most
    /// ``FetchMachine/maximumTransferBytes``. Half a second: what a request's turnaround costs between ranges is
    /// a few percent of it, and what a reader that leaves lets come is no more than that.
    static func transferBytes(priority: TransferPriority, rate: Double?) -> Int64 {
        guard priority == .playback, let rate else { return FetchMachine.minimumTransferBytes }
        return min(max(Int64(rate / 2), FetchMachine.minimumTransferBytes), FetchMachine.maximumTransferBytes)
    }

    /// The readers of `url`, as fetches see them.
    func interests(of url: String) -> [ReaderInterest] {
        resources[url].map { Array($0.readers.values) } ?? []
    }

    /// Begins a fetch of `url` from `start` to `end` through `transport`; `completion` hears how it ends (it then
    /// goes on without readers).
    @discardableResult
    mutating func beginFetch(
        _ url: String, start: Int64, end: Int64?, priority: TransferPriority, transport: any Transport,
        headers: [String: String] = [:], completion: FetchCompletion? = nil
    ) -> FetchID {
        touch(url)
        let id = FetchID(value: nextNumber())
        fetches[id] = FetchRecord(
            machine: FetchMachine(
                url: url, start: start, end: end, priority: priority, isAwaited: completion != nil, headers: headers),
            transport: transport, completion: completion)
        resources[url]?.fetches.append(id)
        statistics.fetchesStarted += 1
        step(id, .begin)
        step(id, .readers(interests(of: url), cancelling: false))
        return id
    }

    /// Feeds `input` to fetch `id` and carries out what it decides (`bytes`: a delivery's body).
    mutating func step(_ id: FetchID, _ input: FetchMachine.Input, bytes: UnsafeRawBufferPointer? = nil) {
        guard var record = fetches[id] else { return }
        let wasMoving = record.machine.isMoving
        let decided = record.machine.step(input, context(record))
        fetches[id] = record
        for action in decided { apply(action, of: id, record, bytes: bytes) }
        let url = record.machine.url
        if wasMoving, fetches[id]?.machine.isMoving != true,
            !(resources[url]?.fetches.contains { fetches[$0]?.machine.isMoving == true } ?? false)
        {
            // Every transfer of the resource stopped: the next bytes start a new rate measurement, and the one that
            // ended is reported (``ByteCache/observeTransfers(_:)``).
            if let measured = resources[url]?.rate.pause() {
                actions.append(
                    .measured(TransferMeasurement(url: url, bytes: measured.bytes, seconds: measured.seconds)))
            }
        }
    }

    private mutating func apply(
        _ action: FetchMachine.Action, of id: FetchID, _ record: FetchRecord, bytes: UnsafeRawBufferPointer?
    ) {
        let url = record.machine.url
        switch action {
        case .startTransfer(let request):
            if resources[url]?.firstTransferStarted == nil {
                resources[url]?.firstTransferStarted = record.transport.currentTime()
            }
            let serial = nextNumber()
            fetches[id]?.transfer = serial
            transfers[serial] = TransferSlot()
            statistics.transfersStarted += 1
            actions.append(.start(serial: serial, fetch: id, request: request, transport: record.transport))
        case .stopTransfer:
            if let serial = fetches[id]?.transfer { stopTransfer(serial) }
            fetches[id]?.transfer = nil
        case .pauseTransfer(let paused):
            guard let serial = fetches[id]?.transfer else { return }
            transfers[serial]?.paused = paused
            if transfers[serial]?.handle != nil { actions.append(.syncPause(serial: serial)) }
        case .scheduleRetry(let seconds): actions.append(.retry(id, seconds: seconds))
        case .keep(let count, let at):
            guard count > 0, let bytes else { return }
            write(url, UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: at)
            resources[url]?.bytesFetched += Int64(count)
            resources[url]?.rate.add(count, at: record.transport.currentTime())
        case .setHead(let head): setHead(url, head)
        case .purge: purge(url)
        case .drained:
            fetches.removeValue(forKey: id)
        case .finish(let outcome, let recorded):
            if fetches[id]?.machine.phase == .draining {
                // Its last range still comes (kept): the record stays until it ends, out of the resource's fetches.
                fetches[id]?.completion = nil
            } else {
                if let serial = fetches[id]?.transfer { stopTransfer(serial) }
                fetches.removeValue(forKey: id)
            }
            resources[url]?.fetches.removeAll { $0 == id }
            if outcome == nil, record.machine.end == nil, resources[url]?.totalLength == nil {
                resources[url]?.endReached = record.machine.position
            }
            if let outcome, recorded, var resource = resources[url] {
                resource.failures += 1
                // Another version on the server: every byte a reader read belongs to the old one, wherever it
                // reads now.
                let changed = outcome.kind == .contentChanged
                resource.failure = (
                    changed ? 0 : record.machine.position, changed ? nil : record.machine.end, outcome,
                    resource.failures
                )
                resources[url] = resource
            }
            if let completion = record.completion { actions.append(.complete(completion, outcome)) }
            // A fetch with no reader left (a prefetch's) ends its resource's use: a later one checks freshness.
            useEnded(url)
            signal()
        }
    }

    /// Ends transfer `serial`: cancelled once the lock is released, or by the thread starting it when the transport
    /// has not answered yet.
    private mutating func stopTransfer(_ serial: UInt64) {
        if let handle = transfers[serial]?.handle {
            transfers.removeValue(forKey: serial)
            actions.append(.cancel(handle))
        } else {
            transfers[serial]?.stopped = true
        }
    }

    /// The transport returned transfer `serial`'s handle: whether to cancel it (stopped meanwhile, or ended
    /// already) or bring it to the paused state decided meanwhile.
    mutating func transferStarted(_ serial: UInt64, handle: any TransferHandle) -> (cancel: Bool, syncPause: Bool) {
        guard let slot = transfers[serial], !slot.stopped else {
            transfers.removeValue(forKey: serial)
            return (true, false)
        }
        transfers[serial]?.handle = handle
        return (false, slot.paused != slot.applied)
    }

    /// Takes the turn to bring transfer `serial`'s handle to its decided paused state: the handle and that state,
    /// or nil when there is nothing to do or another thread has the turn (it looks again when done).
    mutating func beginPauseSync(_ serial: UInt64) -> (handle: any TransferHandle, paused: Bool)? {
        guard let slot = transfers[serial], let handle = slot.handle, !slot.applying, slot.paused != slot.applied
        else { return nil }
        transfers[serial]?.applying = true
        return (handle, slot.paused)
    }

    /// The handle of transfer `serial` was brought to `paused`.
    mutating func endPauseSync(_ serial: UInt64, paused: Bool) {
        transfers[serial]?.applied = paused
        transfers[serial]?.applying = false
    }

    /// Steps every fetch of `url` with its readers now.
    mutating func paceFetches(of url: String, cancelling: Bool = false) {
        let readers = interests(of: url)
        for id in resources[url]?.fetches ?? [] { step(id, .readers(readers, cancelling: cancelling)) }
    }

    /// Adds `delta` link claims; fetches are paced again when the link goes from claimed to free or back.
    mutating func adjustClaims(by delta: Int) {
        let before = linkClaims > 0
        linkClaims = max(linkClaims + delta, 0)
        guard before != (linkClaims > 0) else { return }
        for url in resources.keys where !(resources[url]?.fetches.isEmpty ?? true) { paceFetches(of: url) }
    }

    // MARK: A transfer's events

    /// The response head of transfer `serial`: whether its body is taken.
    mutating func transferHead(_ head: ResponseHead, serial: UInt64, fetch id: FetchID) -> Bool {
        guard fetches[id]?.transfer == serial else { return false }
        step(id, .head(head))
        let taken = fetches[id]?.machine.refusal == nil
        if taken, let url = fetches[id]?.machine.url { resources[url]?.validation = .valid }
        return taken
    }

    /// Body bytes of transfer `serial` of `url`.
    mutating func transferBytes(_ bytes: UnsafeRawBufferPointer, url: String, serial: UInt64, fetch id: FetchID) {
        countReceived(bytes.count, for: url)
        guard let record = fetches[id], record.transfer == serial else { return }
        if resources[url]?.firstByteArrived == nil {
            resources[url]?.firstByteArrived = record.transport.currentTime()
        }
        step(id, .bytes(bytes.count), bytes: bytes)
        if let machine = fetches[id]?.machine, machine.end == nil, let total = resources[url]?.totalLength,
            machine.position < total, isHeldInMemory(url, machine.position),
            ranges(of: url).first(where: { $0.contains(machine.position) })?.upperBound == total
        {
            // The rest is held (a reader fetched the tail first, as a demuxer does for an index at the end): done,
            // without asking for it again.
            step(id, .restHeld)
            signal()
            return
        }
        signal()
        step(id, .readers(interests(of: url), cancelling: true))
    }

    /// Transfer `serial` ended.
    mutating func transferEnded(_ error: MediaError?, serial: UInt64, fetch id: FetchID) {
        guard fetches[id]?.transfer == serial else { return }
        fetches[id]?.transfer = nil
        transfers.removeValue(forKey: serial)
        step(id, .ended(error))
        signal()
    }
}
