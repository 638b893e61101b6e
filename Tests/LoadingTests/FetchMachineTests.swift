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

    static func response(start: Int64, etag: String = "\"v1\"", ranges: Bool = true) -> ResponseHead {
        ResponseHead(
            status: start > 0 ? 206 : 200, start: start, totalLength: 4_000_000,
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
                == [.startTransfer(TransferRequest(url: Self.url, start: 0, priority: .prefetch))])
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
                                url: Self.url, start: 1000, validator: Self.head.validator, priority: .playback))
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
                == [.startTransfer(TransferRequest(url: Self.url, start: 0, validator: nil, priority: .playback))])
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

    @Test("read-ahead: paused past the lead reader's read-ahead (the transfer ends), resumed within half of it")
    func readAhead() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.bytes(1_100_000), Self.known)
        let readers = [Self.reader(0, ahead: 1 << 20)]
        #expect(fetch.step(.readers(readers, cancelling: false), Self.known) == [.stopTransfer])
        #expect(fetch.phase == .paused(.readAhead))
        #expect(fetch.step(.readers([Self.reader(400_000, ahead: 1 << 20)], cancelling: false), Self.known) == [])
        #expect(
            fetch.step(.readers([Self.reader(600_000, ahead: 1 << 20)], cancelling: false), Self.known)
                == [
                    .startTransfer(
                        TransferRequest(
                            url: Self.url, start: 1_100_000, validator: Self.head.validator, priority: .playback))
                ])

        // A server without ranges: the transfer is paused, not ended.
        var noRanges = Self.machine()
        var context = Self.known
        context.head?.acceptsRanges = false
        _ = noRanges.step(.begin, context)
        _ = noRanges.step(.bytes(1_100_000), context)
        #expect(noRanges.step(.readers(readers, cancelling: false), context) == [.pauseTransfer(true)])
        #expect(noRanges.step(.readerWaits(.playback), context) == [.pauseTransfer(false)])
    }

    @Test("link claims: a prefetch's fetch holds while claimed; a playback reader lifts it; prefetch readers do not")
    func link() {
        var claimed = Self.known
        claimed.linkClaimed = true
        var fetch = Self.machine(priority: .prefetch, awaited: true)
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.readers([], cancelling: false), claimed) == [.stopTransfer])
        #expect(fetch.phase == .paused(.link))
        #expect(fetch.step(.readers([Self.reader(0, .prefetch)], cancelling: false), claimed) == [])
        #expect(fetch.step(.readers([Self.reader(0, .playback)], cancelling: false), claimed).count == 1)
        #expect(fetch.priority == .playback)
        #expect(fetch.phase == .moving)
    }

    @Test(
        "readers leave: a fetch begun for readers is cancelled (only as bytes come or a reader leaves); a prefetch goes on"
    )
    func readersLeave() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.readers([], cancelling: false), Self.known) == [], "a move is not a leave")
        let cancelled = fetch.step(.readers([], cancelling: true), Self.known)
        #expect(cancelled.first == .stopTransfer)
        if case .finish(let error, let recorded) = cancelled.last {
            #expect(error?.kind == .cancelled && !recorded)
        } else {
            Issue.record("no finish: \(cancelled)")
        }

        var prefetch = Self.machine(priority: .prefetch, awaited: true)
        _ = prefetch.step(.begin, Self.known)
        #expect(prefetch.step(.readers([], cancelling: true), Self.known) == [])
        #expect(!prefetch.isFinished)
    }

    @Test("the tail rule: a reader of an index at the file's end keeps the fetch from the start going")
    func tail() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.bytes(64 << 10), Self.known)
        let tailReader = Self.reader(3_900_000, ahead: 8 << 20)
        #expect(fetch.step(.readers([tailReader], cancelling: true), Self.known) == [])
        #expect(fetch.phase == .moving)
        // A reader in the middle, not the tail: the fetch serves nobody and ends.
        let middle = Self.reader(2_000_000, ahead: 8 << 20)
        #expect(fetch.step(.readers([middle], cancelling: true), Self.known).contains(.stopTransfer))
    }

    @Test("the rest held: the transfer stops and the fetch finishes without error")
    func restHeld() {
        var fetch = Self.machine()
        _ = fetch.step(.begin, Self.known)
        #expect(fetch.step(.restHeld, Self.known) == [.stopTransfer, .finish(nil, recorded: false)])
    }

    @Test("paused at its last byte: resuming finishes it instead of asking for a range past the end")
    func pausedAtEnd() {
        var fetch = Self.machine(end: 1000)
        _ = fetch.step(.begin, Self.known)
        _ = fetch.step(.bytes(1000), Self.known)
        var claimed = Self.known
        claimed.linkClaimed = true
        _ = fetch.step(.readers([Self.reader(0, .prefetch)], cancelling: false), claimed)
        #expect(fetch.phase == .paused(.link))
        #expect(
            fetch.step(.readers([Self.reader(0, .prefetch)], cancelling: false), Self.known) == [
                .finish(nil, recorded: false)
            ])
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
