import Loading
import Streaming
import Testing

@testable import Feed

/// Which progressive rendition an item plays: the ABR machine's first decision from the estimate, within the
/// limits; made once per item, before its first byte, by the feed's state (a value).
@Suite("Progressive renditions: the choice")
struct RenditionChoiceTests {
    static let low = ProgressiveRendition(url: "http://feed.test/low.mp4", bitrate: 630_000, width: 640, height: 360)
    static let high = ProgressiveRendition(
        url: "http://feed.test/high.mp4", bitrate: 1_680_000, width: 1280, height: 720)

    static func choose(_ estimate: Double?, _ limits: ABRLimits = .none) -> ProgressiveRenditionChoice? {
        ProgressiveRenditionChoice.choose(from: [high, low], limits: limits, estimate: estimate)
    }

    @Test("a low estimate picks the low rendition, a high one the high rendition (0.7 x the estimate)")
    func byEstimate() throws {
        let low = try #require(Self.choose(1_600_000))
        #expect(low.rendition == Self.low && low.index == 1, "1.12 Mbit/s of budget: the 630 kbit/s copy")
        #expect(low.reason == .initial && low.estimateSource == .shared && low.estimate == 1_600_000)
        let high = try #require(Self.choose(8_000_000))
        #expect(high.rendition == Self.high && high.index == 0)
        // The line: the high copy needs 1.68 / 0.7 = 2.4 Mbit/s.
        #expect(Self.choose(2_390_000)?.rendition == Self.low)
        #expect(Self.choose(2_410_000)?.rendition == Self.high)
    }

    @Test("no estimate: the ABR default (500 kbit/s), the lowest rendition; none at all when there are no renditions")
    func noEstimate() {
        let choice = Self.choose(nil)
        #expect(choice?.rendition == Self.low && choice?.estimateSource == .defaultEstimate)
        #expect(choice?.estimate == 500_000)
        #expect(ProgressiveRenditionChoice.choose(from: [], estimate: 8_000_000) == nil)
    }

    @Test("limits: a peak bit rate, the expensive-network cap while the network is expensive, a maximum size")
    func limits() {
        #expect(Self.choose(8_000_000, ABRLimits(preferredPeakBitRate: 1_000_000))?.rendition == Self.low)
        #expect(Self.choose(8_000_000, ABRLimits(preferredPeakBitRate: 1_000_000))?.peakBitRate == 1_000_000)
        let cellular = ABRLimits(preferredPeakBitRateForExpensiveNetworks: 1_000_000, isNetworkExpensive: true)
        #expect(Self.choose(8_000_000, cellular)?.rendition == Self.low)
        let wifi = ABRLimits(preferredPeakBitRateForExpensiveNetworks: 1_000_000, isNetworkExpensive: false)
        #expect(Self.choose(8_000_000, wifi)?.rendition == Self.high)
        let small = ABRLimits(preferredMaximumResolution: Resolution(width: 640, height: 360))
        #expect(Self.choose(8_000_000, small)?.rendition == Self.low)
        // Every rendition above the limit: the lowest still plays.
        #expect(Self.choose(8_000_000, ABRLimits(preferredPeakBitRate: 100_000))?.rendition == Self.low)
    }
}

/// The feed's state makes the choice before the first work that reads an item's bytes, once.
@Suite("Progressive renditions: the feed's decisions")
struct FeedRenditionStateTests {
    static func entries(_ count: Int) -> [FeedEntry] {
        (0..<count).map { index in
            FeedEntry(renditions: [
                ProgressiveRendition(url: "http://feed.test/\(index)/low.mp4", bitrate: 630_000),
                ProgressiveRendition(url: "http://feed.test/\(index)/high.mp4", bitrate: 1_680_000),
            ])
        }
    }

    static func state(
        _ entries: [FeedEntry], _ change: (inout FeedConfiguration) -> Void = { _ in }
    ) -> FeedState {
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        change(&configuration)
        return FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
    }

    /// The URL each `.chooseRendition` of `work` sets, by item.
    static func chosen(_ work: [FeedWork]) -> [Int: String] {
        var urls: [Int: String] = [:]
        for item in work { if case .chooseRendition(let index, let url) = item { urls[index] = url } }
        return urls
    }

    @Test("the first scroll: each item's choice comes before its load or prefetch, with its event")
    func beforeFirstByte() {
        var state = Self.state(Self.entries(6))
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8_000_000)
        let urls = Self.chosen(work)
        #expect(urls == [0: "http://feed.test/0/high.mp4", 1: "http://feed.test/1/high.mp4"])
        for (index, url) in urls {
            let chosenAt = work.firstIndex(of: .chooseRendition(index: index, url: url))
            let readsAt = work.firstIndex { $0.readsBytesOf == index }
            #expect(chosenAt != nil && readsAt != nil && chosenAt! < readsAt!, "item \(index)")
            #expect(
                work.contains {
                    if case .emit(.rendition(index, let choice), _) = $0 { choice.rendition.url == url } else { false }
                })
            #expect(state.url(of: index) == url)
        }
        #expect(state.url(of: 3) == "http://feed.test/3/low.mp4", "not chosen yet: the entry's URL")
    }

    @Test("a choice is kept once made: a later, higher estimate chooses only for items not yet asked for")
    func fixedPerItem() {
        var state = Self.state(Self.entries(6))
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 1_000_000)
        #expect(state.url(of: 1) == "http://feed.test/1/low.mp4")
        let work = state.step(.scroll(index: 1, speed: 1), at: 2, facts: [:], estimate: 8_000_000)
        let urls = Self.chosen(work)
        #expect(urls[1] == nil && urls[0] == nil, "items 0 and 1 keep theirs")
        #expect(state.url(of: 1) == "http://feed.test/1/low.mp4")
        #expect(urls[2] == "http://feed.test/2/high.mp4", "the newly prepared item at the new estimate")
    }

    @Test("a cellular link caps the choice (expensiveNetworkPeakBitRate), a peak bit rate limit too")
    func caps() {
        // With durations, the entries tell their sizes: the cellular cap needs no probe (FeedSizeProbeTests).
        let timed = Self.entries(3).map { entry in
            var entry = entry
            entry.duration = 10
            return entry
        }
        var cellular = Self.state(timed) {
            $0.profile = .cellular
            $0.expensiveNetworkPeakBitRate = 1_000_000
        }
        _ = cellular.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8_000_000)
        #expect(cellular.url(of: 0) == "http://feed.test/0/low.mp4")
        #expect(cellular.renditionChoices[0]?.peakBitRate == 1_000_000)
        var capped = Self.state(Self.entries(3)) { $0.preferredPeakBitRate = 1_000_000 }
        _ = capped.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8_000_000)
        #expect(capped.url(of: 0) == "http://feed.test/0/low.mp4")
    }

    @Test("entries without renditions: no choice, no event, their own URL")
    func withoutRenditions() {
        var state = Self.state(PrefetchPlannerTests.feed("vvivvv"))
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8_000_000)
        #expect(Self.chosen(work).isEmpty)
        #expect(!work.contains { if case .emit(.rendition, _) = $0 { true } else { false } })
        #expect(state.url(of: 0) == "http://feed.test/0")
    }
}
