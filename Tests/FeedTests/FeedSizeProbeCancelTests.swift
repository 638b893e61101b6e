import Feed
import Foundation
import PlaybackTesting
import Testing

/// A feed's size probes end with the feed: invalidated while its probes wait for their answers, it cancels them
/// (a hanging server would have kept each up to the loader's stall timeout).
@Suite("Feed: size probes cancelled with the feed")
struct FeedSizeProbeCancelTests {
    @Test("probes in flight over the simulated link end when the feed is invalidated")
    func cancelledOnInvalidate() async throws {
        // Cellular: a cap, so the unsized videos are probed first; no posters, so the probes are the only transfers.
        let scenario = FeedScenario(
            entries: FeedScenario.entries(4, of: "a.mp4"), bytesPerSecond: 150_000,
            configuration: FeedScenario.configuration {
                $0.profile = .cellular
                $0.posterSize = nil
            })
        scenario.feed.scroll(to: 0)
        // The link's 50 ms latency holds every answer until the clock moves: the probes wait.
        try await waitUntil("the size probes to be sent") { scenario.network.activeTransfers > 0 }
        let sent = scenario.network.activeTransfers
        scenario.feed.invalidate()
        #expect(sent > 0)
        #expect(scenario.network.activeTransfers == 0, "the \(sent) probes were cancelled")
    }
}
