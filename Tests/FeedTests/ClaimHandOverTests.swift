import Foundation
import Loading
import Locking
import Playback
import PlaybackTesting
import Testing

@testable import Feed

/// The item swiped to takes the claim on the link over from the item left (``FeedState``'s `handsClaimOver`): the
/// claim is never let go at a swipe, so the prefetches it holds ask for nothing then. Released and taken again, it
/// left a moment without a claim at every swipe, in which every held prefetch asked for its next range; over a
/// shaped link a range asked for is queued whole, ahead of the bytes of the item swiped to.
@Suite("Claim hand-over: no prefetch asks for a range at a swipe")
struct ClaimHandOverTests {
    /// Over a link slower than the clips (the item on screen claims it most of the time, and an image and the
    /// window's videos wait under the claim), swipes every 1.5 s; returns the requests asked for while each swipe
    /// was decided and done (URL, first byte) other than the item swiped to's, and the summary.
    static func swipe() async -> (others: [String], requests: Int, summary: FeedSummary) {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 50_000, latency: 0.05, directory: MediaFixtures.directory.path)
        let transport = RecordingTransport(network)
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20), transport: transport)
        let entries = FeedScenario.entries(8)
        let feed = FeedController(
            entries: entries, configuration: FeedScenario.configuration(), loading: loading, clock: .manual(clock))
        defer { feed.invalidate() }
        feed.scroll(to: 0)
        for _ in 0..<40 { await clock.advance(bySeconds: 0.05) }
        var others: [String] = []
        var requests = 0
        for index in 1...5 {
            // Under the manual clock nothing moves between advances: what is asked for now is the swipe's.
            transport.recording(true)
            feed.scroll(to: index, speed: 0.7)
            await feed.drained()
            let asked = transport.recording(false)
            requests += asked.count
            others += asked.filter { $0.url != entries[index].url }.map { "#\(index): \($0.url) from \($0.start)" }
            for _ in 0..<30 { await clock.advance(bySeconds: 0.05) }
        }
        return (others, requests, feed.summary)
    }

    @Test("at each swipe only the item swiped to asks for bytes; the held prefetches ask for nothing")
    func nothingAskedAtTheSwipe() async throws {
        let run = await Self.swipe()
        #expect(run.summary.prefetchesStarted > 0, "the window was fetched ahead")
        #expect(run.others.isEmpty, "asked for at the swipes (\(run.requests) in all): \(run.others)")
    }
}

/// A link that records the requests started while told to (under the manual clock: those of one step).
final class RecordingTransport: Transport {
    private let inner: SimulatedNetwork
    private let log = Locked((on: false, requests: [TransferRequest]()))

    init(_ inner: SimulatedNetwork) { self.inner = inner }

    /// Starts or stops recording; returns what was recorded since it started (and forgets it).
    @discardableResult
    func recording(_ on: Bool) -> [TransferRequest] {
        log.withLock { log in
            defer {
                log.on = on
                log.requests = []
            }
            return log.requests
        }
    }

    func start(_ request: TransferRequest, sink: any TransferSink) -> any TransferHandle {
        log.withLock { if $0.on { $0.requests.append(request) } }
        return inner.start(request, sink: sink)
    }

    var isPacedByClock: Bool { inner.isPacedByClock }
    func currentTime() -> Double { inner.currentTime() }
}
