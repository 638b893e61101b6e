import Feed
import Foundation
import Loading
import Locking
import Playback
import PlaybackTesting
import Testing

/// The feed called from its own event callbacks: it decides under its lock and acts after it, so a callback may
/// call any of its methods, and the players'.
@Suite("Feed re-entrancy")
struct FeedReentrancyTests {
    /// What the observer saw at one item's first frame.
    struct Seen: Sendable, Equatable {
        var index: Int
        var state: FeedItemState
        var activations: Int
        var rate: Float?
        var video: Bool
    }

    @Test("an observer that scrolls on at each first frame, from the feed's event callback, goes through 24 items")
    func scrollFromFirstFrame() async throws {
        let count = 24
        let scenario = FeedScenario(entries: FeedScenario.entries(count), bytesPerSecond: 400_000)
        defer { scenario.stop() }
        let feed = scenario.feed
        let seen = Locked<[Seen]>([])
        feed.observeEvents { event in
            guard case .firstFrame(let index, _, _) = event.kind else { return }
            // Reading the feed and the item's player from the callback, then scrolling on.
            let summary = feed.summary
            let record = Seen(
                index: index, state: feed.state(of: index), activations: summary.activations,
                rate: feed.player(for: index)?.rate, video: feed.entries[index].kind == .video)
            seen.withLock { $0.append(record) }
            if index + 1 < count { feed.scroll(to: index + 1, speed: 1) }
        }
        feed.scroll(to: 0)
        // Virtual time; each item needs well under a second of it at 400 KB/s.
        for _ in 0..<(count * 40) {
            await scenario.clock.advance(bySeconds: 0.05)
            if seen.withLock({ $0.count }) >= count { break }
        }
        await feed.eventsDelivered()
        let records = seen.withLock { $0 }
        let trace = scenario.trace.joined(separator: "\n")
        #expect(records.map(\.index) == Array(0..<count), "\(trace)")
        for record in records {
            #expect(record.state == .active, "\(record)")
            #expect(record.activations == record.index + 1, "\(record)")
            // A video's player was told to play before its first frame was reported; an image's never plays.
            #expect(record.rate == (record.video ? 1 : 0), "\(record)")
        }
        #expect(feed.summary.activations == count)
        #expect(feed.activeIndex == count - 1)
    }
}

/// A link that, as each transfer starts (inside the loader's call, the byte cache's lock held), checks from
/// another thread that the feed's lock is free: the feed never calls the loader under its lock.
final class LockProbingTransport: Transport {
    private let inner: SimulatedNetwork
    private let feed = Locked<FeedController?>(nil)
    private let counts = Locked((probes: 0, held: 0))

    init(_ inner: SimulatedNetwork) { self.inner = inner }

    func watch(_ feed: FeedController?) { self.feed.withLock { $0 = feed } }
    var results: (probes: Int, held: Int) { counts.withLock { $0 } }

    func start(_ request: TransferRequest, sink: any TransferSink) -> any TransferHandle {
        // Probed until the lock is found held once (each such probe waits out its deadline).
        if let feed = feed.withLock({ $0 }), counts.withLock({ $0.held }) == 0 {
            let answered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = feed.activeIndex
                answered.signal()
            }
            // Microseconds when the feed's lock is free; held by the caller, never (until the start returns). The
            // 30 s deadline only tells "never" from a starved thread.
            let held = answered.wait(timeout: .now() + 30) == .timedOut
            counts.withLock {
                $0.probes += 1
                if held { $0.held += 1 }
            }
        }
        return inner.start(request, sink: sink)
    }

    var isPacedByClock: Bool { inner.isPacedByClock }
    func currentTime() -> Double { inner.currentTime() }
}

extension FeedReentrancyTests {
    @Test("no transfer starts under the feed's lock: prefetches, prepared and active items over a probing link")
    func noLoaderCallUnderTheLock() async throws {
        let clock = ManualClock()
        let network = SimulatedNetwork(
            clock: clock, bytesPerSecond: 400_000, latency: 0.05, directory: MediaFixtures.directory.path)
        let transport = LockProbingTransport(network)
        let loading = RemoteLoading(cache: ByteCache(memoryLimit: 64 << 20), transport: transport)
        let feed = FeedController(
            entries: FeedScenario.entries(8), configuration: FeedScenario.configuration(), loading: loading,
            clock: .manual(clock))
        defer { feed.invalidate() }
        transport.watch(feed)
        defer { transport.watch(nil) }
        for index in 0..<4 {
            feed.scroll(to: index, speed: 1)
            for _ in 0..<20 { await clock.advance(bySeconds: 0.05) }
        }
        let results = transport.results
        #expect(results.probes > 4, "prefetches and players started transfers")
        #expect(results.held == 0, "\(results.held) of \(results.probes) transfers started under the feed's lock")
    }
}
