import Feed
import Foundation
import Loading
import Playback
import PlaybackTesting
import Testing

/// What the feed's summary counts as played: each item once, however often it is scrolled to.
@Suite("Feed summary: bytes played")
struct FeedPlayedBytesTests {
    @Test("an item watched to its end, left and watched to its end again counts its bytes once (fetched once)")
    func revisitCountsOnce() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 400_000)
        defer { scenario.stop() }
        let size = Int64(try FileManager.default.attributesOfItem(atPath: MediaFixtures.path("a.mp4"))[.size] as! Int)
        // Item 0 to its end (it loops), a second on item 1, back to item 0 to its end again.
        for (index, seconds) in [(0, 7.0), (1, 1.0), (0, 7.0)] {
            scenario.feed.scroll(to: index, speed: 1)
            await scenario.advance(seconds)
        }
        let summary = scenario.feed.summary
        #expect(summary.activations == 3)
        #expect(summary.bytesPlayed >= size, "item 0 looped: all of it was played")
        #expect(summary.bytesPlayed < 2 * size, "item 0 counted once: \(summary.bytesPlayed) of \(size)")
        #expect(summary.bytesPlayed <= summary.bytesFetched, "nothing played was not fetched")
    }

    @Test("the waste's part fetched for items never on screen: what the cache fetched for their URLs, no more")
    func unwatchedBytes() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 400_000)
        defer { scenario.stop() }
        let unwatched = (1..<6).map { scenario.feed.entries[$0].url }
        let tally = scenario.loading.cache.tally(unwatched)
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        let summary = scenario.feed.summary
        let fetched = tally.bytesFetched.values.reduce(0, +)
        #expect(summary.activations == 1)
        #expect(summary.bytesFetchedUnwatched > 0, "the next items were prefetched and prepared")
        #expect(summary.bytesFetchedUnwatched == fetched)
        #expect(summary.bytesFetchedUnwatched + summary.bytesPlayed <= summary.bytesFetched)
        #expect(summary.bytesWasted == summary.bytesFetched - summary.bytesPlayed)
    }
}
