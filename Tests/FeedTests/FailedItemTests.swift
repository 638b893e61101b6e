import Feed
import Foundation
import PlaybackTesting
import Streaming
import Testing

/// A failed item is final: scrolling past it does not fetch it again, and staying on it is one activation.
@Suite("Failed feed items")
struct FailedItemTests {
    @Test("the planner: once passed, a failed item stays failed and is not prefetched again")
    func plannerKeepsFailure() {
        var policy = PrefetchPolicy()
        policy.preparesNext = false
        policy.budget = 100
        var planner = PrefetchPlanner(entries: PrefetchPlannerTests.feed("vvvvvv"), policy: policy)
        _ = planner.scroll(to: 0)
        _ = planner.failed(2)
        _ = planner.scroll(to: 2)
        let past = planner.scroll(to: 3)
        #expect(planner.state(of: 2) == .failed)
        #expect(!past.contains(.start(index: 2, byteLimit: 200 << 10)), "\(past)")
    }

    @Test("the controller: a fling settling on a failed item counts one activation, and passing it fetches nothing")
    func controllerCountsOnce() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(8, missing: [2]), bytesPerSecond: 150_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        scenario.feed.scroll(to: 1, speed: 1)
        await scenario.advance(2)
        #expect(scenario.feed.state(of: 2) == .failed, "\(scenario.trace.joined(separator: "\n"))")
        scenario.feed.scroll(to: 2, speed: 12)
        await scenario.advance(0.2)
        scenario.feed.scroll(to: 2, speed: 0)
        await scenario.advance(0.2)
        #expect(scenario.feed.summary.activations == 3)
        // #1, prepared behind #0, had its frame and half a second when the user came, and played at once.
        #expect(scenario.feed.summary.loaderImpressions == 2, "#0 cold, #2 failed")
        let before = scenario.events.count
        scenario.feed.scroll(to: 3, speed: 1)
        await scenario.advance(1)
        let fetchedAgain = scenario.events.dropFirst(before).contains { event in
            if case .prefetch(2, _, _, _) = event.kind { return true }
            return false
        }
        #expect(!fetchedAgain, "\(scenario.trace.joined(separator: "\n"))")
        #expect(scenario.feed.state(of: 2) == .failed)
        #expect(scenario.feed.summary.failures == 1 && scenario.feed.summary.prefetchesFailed <= 1)
    }

    @Test("on the host clock, a file that fails to open at once is reported, whichever player takes it (50 feeds)")
    func failureAtOnceIsReported() async throws {
        let entries = [
            FeedEntry(url: "/nonexistent/missing.mp4", kind: .video),
            FeedEntry(url: MediaFixtures.path("a.mp4"), kind: .video),
        ]
        var configuration = FeedConfiguration()
        configuration.audio = false
        configuration.poolSize = 2
        configuration.bandwidthEstimate = SharedBandwidthEstimate()
        for run in 0..<50 {
            let feed = FeedController(entries: entries, configuration: configuration, clock: .host)
            defer { feed.invalidate() }
            feed.scroll(to: 0)
            try await waitUntil("run \(run): item 0 to fail (was the failure taken for an earlier item's event?)") {
                feed.state(of: 0) == .failed
            }
            #expect(feed.summary.failures == 1)
        }
    }
}
