/// One fetch's life, as a value: it brings the bytes of one resource from `start` to `end` (or the resource's end)
/// through one transfer at a time. It checks that the server sends what was asked (the range, the same version),
/// pauses when it runs too far ahead of the readers it serves, gives way to playback while a player claims the link
/// (a fetch that serves no playback reader pauses), resumes a dropped connection where it stopped (the same version
/// only, after a delay), and ends with a failure for the readers when it cannot go on.
///
/// It never calls anything: ``step(_:_:)`` takes an input (what the transport or the readers did) and the facts
/// of the moment (``Context``), changes the value and returns the actions its owner (``ByteCache``) performs:
/// the transport's calls after releasing its lock, the bytes' writes and the records' changes under it.
///
/// A pause ends the transfer and a resume starts another from where the fetch stopped (`If-Range`), when the
/// server serves ranges: a paused transfer would keep its connection, and the loader's connections to a host are
/// few (``HTTPLoader``'s `maximumConnectionsPerHost`): paused transfers holding all of them starved every other
/// transfer to that host, the ones their own readers waited for included (a deadlock PausedFetchTests found). A
/// transfer from a server without ranges cannot be resumed elsewhere than at the start, so it is paused instead.
struct FetchMachine: Equatable {
    /// How far ahead of a fetch's position a reader waits for it rather than starting a fetch of its own.
    static let joinWindow: Int64 = 512 << 10
    /// How many times in a row a dropped transfer is resumed before its error is reported.
    static let maximumRetries = 3
    /// The range a transfer asks for: one chunk at least (a prefetch's, which gives way within a chunk), at most
    /// 4 MB (a playback reader's is half a second of the link: ``CacheState/transferBytes(priority:rate:)``).
    static let minimumTransferBytes = Int64(ByteCache.chunkSize)
    static let maximumTransferBytes: Int64 = 4 << 20

    let url: String
    let start: Int64
    let end: Int64?
    /// The priority it was started with; while it serves readers, theirs (playback if one of them is).
    let basePriority: TransferPriority
    /// Whether someone waits for how it ends (a prefetch): such a fetch goes on without readers.
    let isAwaited: Bool
    /// The HTTP header fields its transfers send.
    let headers: [String: String]
    private(set) var priority: TransferPriority
    /// The next byte it will write.
    private(set) var position: Int64
    private(set) var phase = Phase.moving
    /// Whether a transfer is under way (or paused), where it starts and where its range ends (nil: it sends the
    /// rest of the resource, as a server without ranges does), and whether its handle was paused.
    private(set) var hasTransfer = false
    private(set) var requestStart: Int64
    private(set) var transferEnd: Int64?
    private(set) var transferHeld = false
    /// Retries left: reset when a transfer brings bytes, so it counts failed attempts in a row.
    private(set) var retriesLeft = FetchMachine.maximumRetries
    /// Whether the server answered this fetch once (a refused connection afterwards may be a restart).
    private(set) var answered = false
    /// A failure decided here (a range or version the server would not give), reported when the transfer ends.
    private(set) var refusal: MediaError?

    init(
        url: String, start: Int64, end: Int64?, priority: TransferPriority, isAwaited: Bool,
        headers: [String: String] = [:]
    ) {
        self.url = url
        self.headers = headers
        self.start = start
        self.end = end
        self.basePriority = priority
        self.priority = priority
        self.isAwaited = isAwaited
        self.position = start
        self.requestStart = start
    }

    /// Seconds before retry `attempt` (0, 1, 2): 0.5, 1, 2. A server that dropped the connection because it is
    /// restarting refuses connections for a moment; retrying at once would fail three times in a few milliseconds.
    static func retryDelay(attempt: Int) -> Double { 0.5 * Double(1 << attempt) }

    /// The end of a file where a demuxer reads an index stored after the media (an MP4's moov at its end): its last
    /// 1/16, at least 1 MB.
    static func tailWindow(of total: Int64) -> Int64 { max(1 << 20, total / 16) }

    var isFinished: Bool { phase == .finished }
    /// Ended for its readers (finished, or draining its last range).
    var hasEnded: Bool { phase == .finished || phase == .draining }
    var isPaused: Bool { !reasons.isEmpty }
    /// Whether its bytes flow now (not paused, not waiting to retry, not ended).
    var isMoving: Bool { phase == .moving }

    /// Whether it is writing into chunk `index` now (or will when it resumes).
    func isFilling(chunk index: Int, chunkSize: Int) -> Bool {
        !isFinished && Int(position / Int64(chunkSize)) == index
    }

    /// Whether it will bring the byte at `offset` (before the end it was asked for).
    func covers(_ offset: Int64) -> Bool {
        !hasEnded && offset >= position && end.map { offset < $0 } ?? true
    }

    private var reasons: PauseReasons {
        switch phase {
        case .paused(let reasons), .retrying(let reasons): reasons
        case .moving, .draining, .finished: []
        }
    }

    // MARK: Steps

    mutating func step(_ input: Input, _ context: Context) -> [Action] {
        if phase == .draining { return drain(input, context) }
        guard !isFinished else { return [] }
        switch input {
        case .begin:
            guard basePriority == .prefetch && context.linkClaimed else { return startTransfer(context) }
            // Held before it asks for anything: a transfer started and paused at once still has the server send a
            // socket buffer's worth, which waits in the link's queue ahead of the playback that claims it.
            phase = .paused(.link)
            return []
        case .head(let head): return received(head, context)
        case .bytes(let count): return received(count)
        case .ended(let error): return ended(error, context)
        case .readers(let readers, let cancelling): return pace(readers, cancelling: cancelling, context)
        case .readerWaits(let readerPriority):
            if readerPriority > priority { priority = readerPriority }
            return update(readAhead: false, link: priority == .prefetch && context.linkClaimed, context)
        case .restHeld:
            let stop: [Action] = hasTransfer ? [.stopTransfer] : []
            hasTransfer = false
            return stop + finish(nil)
        case .retryDue:
            guard case .retrying(let reasons) = phase else { return [] }
            if reasons.isEmpty { return startTransfer(context) }
            phase = .paused(reasons)
            return []
        case .cancel:
            let cancelled = Action.finish(
                MediaError(.cancelled, url: url, operation: .read, reason: "cancelled"), recorded: false)
            if hasTransfer, !transferHeld, let transferEnd, transferEnd - position <= context.inFlightBytes {
                phase = .draining
                return [cancelled]
            }
            let stop: [Action] = hasTransfer ? [.stopTransfer] : []
            hasTransfer = false
            phase = .finished
            return stop + [cancelled]
        case .revive: return []
        }
    }

    /// A draining fetch: its range's bytes are kept until it ends; a reader may take it back.
    private mutating func drain(_ input: Input, _ context: Context) -> [Action] {
        switch input {
        case .bytes(let count): return received(count)
        case .head(let head): return received(head, context)
        case .ended:
            hasTransfer = false
            phase = .finished
            return [.drained]
        case .revive:
            phase = .moving
            return []
        case .begin, .readers, .readerWaits, .restHeld, .retryDue, .cancel: return []
        }
    }

    private mutating func startTransfer(_ context: Context) -> [Action] {
        phase = .moving
        hasTransfer = true
        transferHeld = false
        requestStart = position
        refusal = nil
        let validator = position > start ? context.head?.validator : nil
        // A range of at most `transferBytes`, unless the server is known to serve none.
        var bound = end
        if context.head?.acceptsRanges != false {
            let range = position + max(context.transferBytes, Self.minimumTransferBytes)
            bound = min(end ?? range, range)
        }
        transferEnd = bound
        return [
            .startTransfer(
                TransferRequest(
                    url: url, start: position, end: bound, validator: validator, priority: priority, headers: headers))
        ]
    }

    private mutating func finish(_ outcome: MediaError?) -> [Action] {
        phase = .finished
        return [.finish(outcome, recorded: outcome != nil)]
    }

    /// Whether it brought every byte it was asked for.
    private func reachedEnd(_ context: Context) -> Bool {
        end.map { position >= $0 } ?? (context.head?.totalLength.map { position >= $0 } ?? false)
    }

    private mutating func received(_ head: ResponseHead, _ context: Context) -> [Action] {
        let known = context.head
        let received = ResourceHead(
            totalLength: head.totalLength ?? known?.totalLength, validator: head.validator,
            acceptsRanges: head.acceptsRanges, caching: head.caching,
            variant: head.caching?.vary.map { CacheDirectives.variant(of: headers, varyingOn: $0) })
        if let known, !known.validator.isEmpty, !known.validator.matches(head.validator) {
            refusal = MediaError(
                .contentChanged, url: url, operation: .read,
                reason: "the server sends another version (ETag/Last-Modified changed)")
            return [.purge]
        }
        if head.start != requestStart {
            refusal = MediaError(
                .rangeNotSupported, url: url, operation: .seek,
                reason: "asked for bytes from \(requestStart), the server sent the whole file (\(head.status))")
            return [
                .setHead(
                    ResourceHead(
                        totalLength: received.totalLength, validator: received.validator, acceptsRanges: false,
                        caching: received.caching, variant: received.variant))
            ]
        }
        answered = true
        // Not a range (a server without ranges answering the first request): the transfer sends the rest.
        if head.status != 206 { transferEnd = nil }
        if known.map({ received.differs(from: $0) }) ?? true {
            return [.setHead(received)]
        }
        return []
    }

    private mutating func received(_ count: Int) -> [Action] {
        let kept = end.map { min(count, Int(max($0 - position, 0))) } ?? count
        let at = position
        position += Int64(kept)
        if kept > 0 { retriesLeft = Self.maximumRetries }
        return [.keep(count: kept, at: at)]
    }

    private mutating func ended(_ error: MediaError?, _ context: Context) -> [Action] {
        hasTransfer = false
        let outcome = refusal ?? error
        if outcome == nil, let transferEnd, position >= transferEnd, !reachedEnd(context) {
            // A range ended: the next one, unless the fetch holds (it goes on from here when it resumes).
            if isPaused { return [] }
            return startTransfer(context)
        }
        if let outcome, refusal == nil, !reachedEnd(context), retriesLeft > 0, isRetryable(outcome.kind),
            context.head?.acceptsRanges == true
        {
            // Dropped mid-way: resume where it stopped, for the same version only (If-Range), after a delay. The
            // fetch stays meanwhile, so readers wait for it rather than start their own.
            let attempt = Self.maximumRetries - retriesLeft
            retriesLeft -= 1
            // A link that follows a manual clock has no real time to wait in: it resumes at once (the resume starts
            // at the link's time, so the trace stays the same every run).
            if context.pacedByClock {
                let held = reasons
                if held.isEmpty { return startTransfer(context) }
                phase = .paused(held)
                return []
            }
            phase = .retrying(reasons)
            return [.scheduleRetry(seconds: Self.retryDelay(attempt: attempt))]
        }
        return finish(outcome)
    }

    /// Pauses or resumes for one reason; it moves when neither holds it.
    private mutating func update(readAhead: Bool? = nil, link: Bool? = nil, _ context: Context) -> [Action] {
        var next = reasons
        if let readAhead { if readAhead { next.insert(.readAhead) } else { next.remove(.readAhead) } }
        if let link { if link { next.insert(.link) } else { next.remove(.link) } }
        if case .retrying = phase {
            phase = .retrying(next)
            return []
        }
        let was = isPaused
        phase = next.isEmpty ? .moving : .paused(next)
        guard next.isEmpty == was else { return [] }
        if !next.isEmpty {
            // A range under way ends where it ends (no next one while it holds), unless it holds for a link claim
            // with more to go than is on its way (a playback range lowered to prefetch: playback gets the link
            // sooner); a transfer of the whole rest is ended, or paused when the server serves no ranges.
            guard hasTransfer else { return [] }
            if let transferEnd, !next.contains(.link) || transferEnd - position <= context.inFlightBytes {
                return []
            }
            if transferEnd != nil {
                hasTransfer = false
                return [.stopTransfer]
            }
            if context.head?.acceptsRanges == true {
                hasTransfer = false
                return [.stopTransfer]
            }
            transferHeld = true
            return [.pauseTransfer(true)]
        }
        if hasTransfer {
            guard transferHeld else { return [] }
            transferHeld = false
            return [.pauseTransfer(false)]
        }
        // Paused between its last byte and its transfer's end: every byte is here, and another transfer would ask
        // for a range past the end (a 416 the readers would take for a failure).
        if reachedEnd(context) { return finish(nil) }
        return startTransfer(context)
    }

    /// Whether `reader` reads the resource's tail, ahead of this fetch, which began at the file's start and has its
    /// whole length to go (a reader of the index after the media, who will be back for the media data).
    private func readsTail(_ reader: ReaderInterest, total: Int64?) -> Bool {
        guard start == 0, end == nil, let total else { return false }
        return reader.position > position + Self.joinWindow && total - reader.position <= Self.tailWindow(of: total)
    }

    /// Pauses when it is more than its readers' read-ahead past the one it serves that reads farthest; resumes when
    /// back within half of it. The readers it serves are those behind it (from a chunk before its start) or waiting
    /// just ahead of it.
    private mutating func pace(_ readers: [ReaderInterest], cancelling: Bool, _ context: Context) -> [Action] {
        let served = readers.compactMap { reader -> ReaderInterest? in
            if reader.position >= start - Int64(ByteCache.chunkSize) && reader.position <= position + Self.joinWindow {
                return reader
            }
            // A reader that jumped ahead into the file's tail (an MP4 whose index is at its end: the demuxer reads
            // it, then comes back to the media data) stands where this fetch began: the fetch goes on instead of
            // being cut off with a link's worth of bytes in flight, paid again when the reader is back.
            guard readsTail(reader, total: context.head?.totalLength) else { return nil }
            var back = reader
            back.position = start
            return back
        }
        // Its readers' priority while it serves any (playback if one is), else what it was started as. A reader
        // lowered to prefetch (a feed's item on screen giving the link to the next item's start) lowers the fetch
        // it began with playback priority.
        if served.isEmpty {
            priority = basePriority
        } else {
            priority = served.contains { $0.priority == .playback } ? .playback : .prefetch
        }
        let holdForLink = priority == .prefetch && context.linkClaimed
        guard let lead = served.max(by: { $0.position < $1.position }) else {
            // A fetch begun for readers (whatever its priority) ends with them; a prefetch's goes on.
            if cancelling && !isAwaited { return step(.cancel, context) }
            return update(link: holdForLink, context)
        }
        let ahead = position - lead.position
        let pausedForReadAhead = reasons.contains(.readAhead)
        if !pausedForReadAhead && ahead > lead.readAhead && !reachedEnd(context) {
            return update(readAhead: true, link: holdForLink, context)
        } else if pausedForReadAhead && ahead <= lead.readAhead / 2 {
            return update(readAhead: false, link: holdForLink, context)
        }
        return update(link: holdForLink, context)
    }

    /// Whether a transfer that failed with `kind` may be resumed: a lost connection or a stall, and a refused
    /// connection once the server answered this fetch (it went away mid-way, perhaps to restart).
    private func isRetryable(_ kind: MediaError.Kind) -> Bool {
        kind == .connectionLost || kind == .timedOut || kind == .connectionRefused && answered
    }
}
