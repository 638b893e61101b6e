import Foundation
import Loading
import PlaybackTesting
import Streaming
import Testing

@testable import Feed

/// The feed's progressive bytes feed the bandwidth estimate: the next item's rendition is chosen at the rate the link
/// has shown (a simulated link under a manual clock: the same figures on every run).
@Suite("Feed throughput: progressive bytes feed the estimate")
struct FeedThroughputTests {
    /// `count` entries, each with a "low" (a.mp4, said to be 500 kbit/s) and a "high" (b.mp4, said to be 1.5 Mbit/s)
    /// rendition under its own URLs.
    static func entries(_ count: Int) -> [FeedEntry] {
        (0..<count).map { index in
            FeedEntry(renditions: [
                ProgressiveRendition(url: "http://feed.test/\(index)/low/a.mp4", bitrate: 500_000),
                ProgressiveRendition(url: "http://feed.test/\(index)/high/b.mp4", bitrate: 1_500_000),
            ])
        }
    }

    static func choices(_ events: [FeedEvent]) -> [Int: ProgressiveRenditionChoice] {
        var choices: [Int: ProgressiveRenditionChoice] = [:]
        for event in events { if case .rendition(let index, let choice) = event.kind { choices[index] = choice } }
        return choices
    }

    @Test("over 8 Mbit/s from no estimate: the first items start low, the estimate rises, the next item plays high")
    func nextItemAtTheLinkRate() async throws {
        let estimate = SharedBandwidthEstimate()
        let scenario = FeedScenario(
            entries: Self.entries(6), bytesPerSecond: 1_000_000,
            configuration: FeedScenario.configuration { $0.bandwidthEstimate = estimate })
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        let first = Self.choices(scenario.events)
        #expect(first[0]?.rendition.bitrate == 500_000 && first[0]?.estimateSource == .defaultEstimate)
        let measured = try #require(estimate.current, "the feed's transfers were measured")
        #expect(measured > 4_000_000 && measured < 9_000_000, "about the link's 8 Mbit/s: \(measured)")
        scenario.feed.scroll(to: 1, speed: 1)
        await scenario.advance(1)
        let next = Self.choices(scenario.events)
        #expect(next[1] == first[1], "item 1's choice was made as it was prepared, and kept")
        let later = try #require(next[2], "the next prepared item chose: \(scenario.trace)")
        #expect(later.rendition.bitrate == 1_500_000 && later.estimateSource == .shared, "\(later)")
    }

    @Test("a feed without renditions measures its bytes too (a 1.6 Mbit/s link)")
    func plainFeedMeasures() async {
        let estimate = SharedBandwidthEstimate()
        let scenario = FeedScenario(
            entries: FeedScenario.entries(4, of: "a.mp4"), bytesPerSecond: 200_000,
            configuration: FeedScenario.configuration { $0.bandwidthEstimate = estimate })
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        let measured = estimate.current ?? 0
        #expect(measured > 800_000 && measured < 1_800_000, "about the link's 1.6 Mbit/s: \(measured)")
    }
}
