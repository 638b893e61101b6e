import MediaCore
import Testing

@testable import Loading

/// A fetch's life as a value: each input with the facts of its moment, and the actions it returns. No network, no
/// cache, no threads: the table the byte cache's decisions come from.
@Suite("Fetch machine: input -> actions")
struct FetchMachineTests {
    static let url = "http://example.test/a.mp4"
    static let head = ResourceHead(
        totalLength: 4_000_000, validator: ResourceValidator(etag: "\"v1\"", lastModified: nil), acceptsRanges: true)
    static let known = FetchMachine.Context(head: head)
    /// One transfer's range by default (a chunk).
    static let range = Int64(ByteCache.chunkSize)

    static func with(_ context: FetchMachine.Context, transferBytes: Int64) -> FetchMachine.Context {
        var out = context
        out.transferBytes = transferBytes
        return out
    }

    /// A link with a range's worth of bytes on their way (a deep queue).
    static let bloated: FetchMachine.Context = {
        var out = known
        out.inFlightBytes = range
        return out
    }()

    static func machine(
        start: Int64 = 0, end: Int64? = nil, priority: TransferPriority = .playback, awaited: Bool = false
    ) -> FetchMachine {
        FetchMachine(url: url, start: start, end: end, priority: priority, isAwaited: awaited)
    }

    static func reader(
        _ position: Int64, ahead: Int64 = 1 << 20, _ priority: TransferPriority = .playback
    )
        -> ReaderInterest
    {
        ReaderInterest(position: position, readAhead: ahead, priority: priority)
    }

    static func response(
        start: Int64, etag: String = "\"v1\"", ranges: Bool = true, status: Int? = nil
    )
        -> ResponseHead
    {
        ResponseHead(
            status: status ?? (start > 0 ? 206 : 200), start: start, totalLength: 4_000_000,
            validator: ResourceValidator(etag: etag, lastModified: nil), acceptsRanges: ranges)
    }

    @Test("begin: a transfer of its range; a prefetch under a link claim holds without asking for anything")
    func begin() {
        var fetch = Self.machine(start: 1000, end: 5000)
        #expect(
            fetch.step(.begin, Self.known)
                == [.startTransfer(TransferRequest(url: Self.url, start: 1000, end: 5000, priority: .playback))])
        #expect(fetch.phase == .moving)

        var prefetch = Self.machine(priority: .prefetch, awaited: true)
        var claimed = Self.known
        claimed.linkClaimed = true
        #expect(prefetch.step(.begin, claimed) == [])
        #expect(prefetch.phase == .paused(.link))
        // The claim ends: it starts.
        #expect(
            prefetch.step(.readers([], cancelling: false), Self.known)
                == [.startTransfer(TransferRequest(url: Self.url, start: 0, end: Self.range, priority: .prefetch))])
    }

    @Test("ranges: a fetch moves range after range (the same version only); a server without ranges sends the rest")
    func ranges() {
        let context = Self.with(Self.known, transferBytes: 300_000)
        var fetch = Self.machine()
        #expect(
            fetch.step(.begin, context)
                == [.startTransfer(TransferRequest(url: Self.url, start: 0, end: 300_000, priority: .playback))])
        _ = fetch.step(.head(Self.response(start: 0, status: 206)), context)
        _ = fetch.step(.bytes(300_000), context)
        #expect(
            fetch.step(.ended(nil), context)
                == [
                    .startTransfer(
                        TransferRequest(
                            url: Self.url, start: 300_000, end: 600_000, validator: Self.head.validator,
                            priority: .playback))
                ])

        // The first request's answer is the whole file: that transfer brings the rest.
        let unknown = FetchMachine.Context(transferBytes: 300_000)
        var whole = Self.machine()
        _ = whole.step(.begin, unknown)
        _ = whole.step(.head(Self.response(start: 0, ranges: false)), unknown)
        #expect(whole.transferEnd == nil)
        _ = whole.step(.bytes(300_000), context)
        #expect(whole.step(.bytes(1000), context) == [.keep(count: 1000, at: 300_000)])
    }

    @Test("bytes: kept up to its end, position advances; bytes past the end are not kept")
    func bytes() {
        var fetch = Self.machine(start: 100, end: 200)
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.bytes(60), Self.known) == [.keep(count: 60, at: 100)])
        #expect(fetch.step(.bytes(60), Self.known) == [.keep(count: 40, at: 160)])
        #expect(fetch.position == 200)
        #expect(fetch.step(.ended(nil), Self.known) == [.finish(nil, recorded: false)])
        #expect(fetch.isFinished)
        #expect(fetch.step(.bytes(10), Self.known) == [], "a finished fetch decides nothing")
    }

    @Test("head: another version purges and refuses; a whole file for a range refuses and marks no ranges")
    func heads() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.head(Self.response(start: 0)), Self.known) == [])
        #expect(fetch.refusal == nil)

        var changed = Self.machine(start: 1 << 20)
        _ = changed.step(.begin, Self.known)
        #expect(changed.step(.head(Self.response(start: 1 << 20, etag: "\"v2\"")), Self.known) == [.purge])
        #expect(changed.refusal?.kind == .contentChanged)
        #expect(changed.step(.ended(nil), Self.known) == [.finish(changed.refusal, recorded: true)])

        var whole = Self.machine(start: 1 << 20)
        _ = whole.step(.begin, Self.known)
        let actions = whole.step(.head(Self.response(start: 0)), Self.known)
        #expect(
            actions == [
                .setHead(ResourceHead(totalLength: 4_000_000, validator: Self.head.validator, acceptsRanges: false))
            ])
        #expect(whole.refusal?.kind == .rangeNotSupported)

        var first = Self.machine()
        _ = first.step(.begin, FetchMachine.Context())
        #expect(
            first.step(.head(Self.response(start: 0)), FetchMachine.Context()) == [.setHead(Self.head)],
            "the first response tells the resource's head")
    }

    @Test("a dropped connection: retried after 0.5, 1, 2 s, from where it stopped with If-Range; the fourth fails")
    func retries() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.head(Self.response(start: 0)), Self.known)
        _ = fetch.step(.bytes(1000), Self.known)
        let lost = MediaError(.connectionLost, url: Self.url, operation: .read, reason: "reset")
        for delay in [0.5, 1, 2] {
            #expect(fetch.step(.ended(lost), Self.known) == [.scheduleRetry(seconds: delay)])
            #expect(fetch.phase == .retrying([]))
            #expect(
                fetch.step(.retryDue, Self.known)
                    == [
                        .startTransfer(
                            TransferRequest(
                                url: Self.url, start: 1000, end: 1000 + Self.range, validator: Self.head.validator,
                                priority: .playback))
                    ])
        }
        #expect(fetch.step(.ended(lost), Self.known) == [.finish(lost, recorded: true)])

        // Bytes reset the count: failures in a row only.
        var again = Self.machine()
        _ = again.step(.begin, Self.known)
        for _ in 0..<5 {
            #expect(again.step(.ended(lost), Self.known).count == 1)
            _ = again.step(.retryDue, Self.known)
            _ = again.step(.bytes(10), Self.known)
        }
        #expect(!again.isFinished)

        // Under a manual clock: at once.
        var paced = Self.machine()
        var clock = Self.known
        clock.pacedByClock = true
        _ = paced.step(.begin, clock)
        #expect(
            paced.step(.ended(lost), clock)
                == [
                    .startTransfer(
                        TransferRequest(url: Self.url, start: 0, end: Self.range, validator: nil, priority: .playback))
                ])
    }

    @Test("not retried: a refused connection before any answer, an HTTP error, a server without ranges")
    func notRetried() {
        let refused = MediaError(.connectionRefused, url: Self.url, operation: .read, reason: "refused")
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.ended(refused), Self.known) == [.finish(refused, recorded: true)])

        var answered = Self.machine()
        _ = answered.step(.begin, Self.known)
        _ = answered.step(.head(Self.response(start: 0)), Self.known)
        #expect(answered.step(.ended(refused), Self.known) == [.scheduleRetry(seconds: 0.5)], "a restart")

        var noRanges = Self.machine()
        var context = Self.known
        context.head?.acceptsRanges = false
        _ = noRanges.step(.begin, context)
        let lost = MediaError(.connectionLost, url: Self.url, operation: .read, reason: "reset")
        #expect(noRanges.step(.ended(lost), context) == [.finish(lost, recorded: true)])
    }

    @Test("read-ahead: past the lead reader's read-ahead no next range starts (none is cut); within half, it goes on")
    func readAhead() {
        let context = Self.with(Self.known, transferBytes: 1_100_000)
        var fetch = Self.machine()
        _ = fetch.step(.begin, context)
        _ = fetch.step(.bytes(1_100_000), context)
        let readers = [Self.reader(0, ahead: 1 << 20)]
        #expect(fetch.step(.readers(readers, cancelling: false), context) == [], "the range under way goes on")
        #expect(fetch.phase == .paused(.readAhead))
        #expect(fetch.step(.ended(nil), context) == [], "its end starts no next range")
        #expect(fetch.step(.readers([Self.reader(400_000, ahead: 1 << 20)], cancelling: false), context) == [])
        #expect(
            fetch.step(.readers([Self.reader(600_000, ahead: 1 << 20)], cancelling: false), context)
                == [
                    .startTransfer(
                        TransferRequest(
                            url: Self.url, start: 1_100_000, end: 2_200_000, validator: Self.head.validator,
                            priority: .playback))
                ])

        // A server without ranges: the transfer is paused, not ended.
        var noRanges = Self.machine()
        var plain = Self.known
        plain.head?.acceptsRanges = false
        _ = noRanges.step(.begin, plain)
        _ = noRanges.step(.bytes(1_100_000), plain)
        #expect(noRanges.step(.readers(readers, cancelling: false), plain) == [.pauseTransfer(true)])
        #expect(noRanges.step(.readerWaits(.playback), plain) == [.pauseTransfer(false)])
    }

    @Test("link claims: a prefetch's fetch holds while claimed; a playback reader lifts it; prefetch readers do not")
    func link() {
        var claimed = Self.bloated
        claimed.linkClaimed = true
        var fetch = Self.machine(priority: .prefetch, awaited: true)
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.readers([], cancelling: false), claimed) == [], "its chunk-sized range ends where it ends")
        #expect(fetch.phase == .paused(.link))
        _ = fetch.step(.bytes(Int(Self.range)), claimed)
        #expect(fetch.step(.ended(nil), claimed) == [], "no next range while the link is claimed")
        #expect(fetch.step(.readers([Self.reader(0, .prefetch)], cancelling: false), claimed) == [])
        #expect(fetch.step(.readers([Self.reader(0, .playback)], cancelling: false), claimed).count == 1)
        #expect(fetch.priority == .playback)
        #expect(fetch.phase == .moving)
    }

    @Test(
        "readers leave: a fetch begun for readers ends (as bytes come or a reader leaves), its range kept; a prefetch goes on"
    )
    func readersLeave() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.bloated)
        #expect(fetch.step(.readers([], cancelling: false), Self.bloated) == [], "a move is not a leave")
        let cancelled = fetch.step(.readers([], cancelling: true), Self.bloated)
        #expect(cancelled.count == 1, "no transfer cut: \(cancelled)")
        if case .finish(let error, let recorded) = cancelled.last {
            #expect(error?.kind == .cancelled && !recorded)
        } else {
            Issue.record("no finish: \(cancelled)")
        }
        #expect(fetch.phase == .draining)
        #expect(!fetch.covers(100), "readers do not wait for a draining fetch")
        #expect(fetch.step(.bytes(1000), Self.known) == [.keep(count: 1000, at: 0)], "its bytes are kept")
        #expect(fetch.step(.ended(nil), Self.known) == [.drained])
        #expect(fetch.isFinished)

        // With less on its way than it has to go, it is cut off.
        var cut = Self.machine()
        _ = cut.step(.begin, Self.known)
        #expect(cut.step(.cancel, Self.known).first == .stopTransfer)
        #expect(cut.isFinished)

        // A reader back in its range takes it back.
        var back = Self.machine()
        _ = back.step(.begin, Self.bloated)
        _ = back.step(.cancel, Self.bloated)
        #expect(back.step(.revive, Self.known) == [])
        #expect(back.phase == .moving && back.covers(100))

        var prefetch = Self.machine(priority: .prefetch, awaited: true)
        _ = prefetch.step(.begin, Self.known)
        #expect(prefetch.step(.readers([], cancelling: true), Self.known) == [])
        #expect(!prefetch.isFinished)
    }

    @Test("the tail rule: a reader of an index at the file's end keeps the fetch from the start going")
    func tail() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.bloated)
        _ = fetch.step(.bytes(64 << 10), Self.bloated)
        let tailReader = Self.reader(3_900_000, ahead: 8 << 20)
        #expect(fetch.step(.readers([tailReader], cancelling: true), Self.bloated) == [])
        #expect(fetch.phase == .moving)
        // A reader in the middle, not the tail: the fetch serves nobody and ends (its range drains).
        let middle = Self.reader(2_000_000, ahead: 8 << 20)
        #expect(fetch.step(.readers([middle], cancelling: true), Self.bloated).count == 1)
        #expect(fetch.phase == .draining)
    }

    @Test("the rest held: the transfer stops and the fetch finishes without error")
    func restHeld() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.restHeld, Self.known) == [.stopTransfer, .finish(nil, recorded: false)])
    }

    @Test(
        "paused at its last byte: its end finishes it; a transfer without ranges is held and resumed, not asked again")
    func pausedAtEnd() {
        var fetch = Self.machine(end: 1000)
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.bytes(1000), Self.known)
        var claimed = Self.known
        claimed.linkClaimed = true
        _ = fetch.step(.readers([Self.reader(0, .prefetch)], cancelling: false), claimed)
        #expect(fetch.phase == .paused(.link))
        #expect(fetch.step(.ended(nil), claimed) == [.finish(nil, recorded: false)])

        var plain = Self.known
        plain.head?.acceptsRanges = false
        var claimedPlain = plain
        claimedPlain.linkClaimed = true
        var held = Self.machine()
        _ = held.step(.begin, plain)
        _ = held.step(.bytes(1000), plain)
        let prefetchReader = [Self.reader(0, .prefetch)]
        #expect(held.step(.readers(prefetchReader, cancelling: false), claimedPlain) == [.pauseTransfer(true)])
        #expect(held.step(.readers(prefetchReader, cancelling: false), plain) == [.pauseTransfer(false)])
    }

    @Test("cancel while waiting to retry: no transfer to stop, finished, the retry due later does nothing")
    func cancelDuringRetry() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.head(Self.response(start: 0)), Self.known)
        _ = fetch.step(.ended(MediaError(.timedOut, url: Self.url, operation: .read, reason: "stall")), Self.known)
        let actions = fetch.step(.cancel, Self.known)
        #expect(actions.count == 1)
        #expect(fetch.step(.retryDue, Self.known) == [])
    }
}
