import Streaming
import Testing

@testable import Feed

/// The peak bit rate of an HLS or DASH item's variants: the scroll's share of the estimate (dwell / (dwell +
/// forward buffer)) within the feed's limits, decided by the feed's state once per item before its first byte.
@Suite("Adaptive items: the feed's variant cap")
struct VariantCapTests {
    /// `bench --feed --parts hls`'s ladder (scripts/make-ladder-media.sh's fMP4 master: BANDWIDTH as measured).
    static let ladder = [
        ("v0", 958_780, 640, 360), ("v1", 1_779_856, 960, 540), ("v2", 3_218_548, 1280, 720),
        ("v3", 5_150_972, 1920, 1080),
    ].map { id, bandwidth, width, height in
        Variant(
            id: id, bandwidth: bandwidth, resolution: Resolution(width: width, height: height),
            media: .playlist(url: "http://feed.test/\(id)/index.m3u8"))
    }

    static func entries(_ count: Int) -> [FeedEntry] {
        (0..<count).map { FeedEntry(url: "http://feed.test/\($0)/master.m3u8", kind: .video, duration: 12) }
    }

    static func state(_ entries: [FeedEntry], _ change: (inout FeedConfiguration) -> Void = { _ in }) -> FeedState {
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        change(&configuration)
        return FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
    }

    /// The cap each `.capVariants` of `work` sets, by item.
    static func caps(_ work: [FeedWork]) -> [Int: Double] {
        var caps: [Int: Double] = [:]
        for item in work { if case .capVariants(let index, let peak) = item { caps[index] = peak } }
        return caps
    }

    /// The variant the ABR machine starts on at `estimate` under `peak` (0: none), as the item's prefetch and its
    /// player both do.
    static func start(_ estimate: Double, peak: Double) -> Int? {
        let machine = ABRMachine(
            variants: ladder, limits: ABRLimits(preferredPeakBitRate: peak), startEstimate: estimate)
        guard var machine else { return nil }
        return machine.nextSegment(duration: 0).variant.resolution?.height
    }

    @Test("each item's cap comes before its first work that reads bytes, once, at the assumed dwell's share (3 s)")
    func beforeFirstByte() {
        var state = Self.state(Self.entries(8))
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8_000_000)
        let caps = Self.caps(work)
        #expect(!caps.isEmpty && caps.keys.contains(0) && caps.keys.contains(1), "\(caps)")
        for (index, peak) in caps {
            // 3 s / (3 s + 4 s ahead) of 8 Mbit/s.
            #expect(abs(peak - 8_000_000 * 3 / 7) < 1, "item \(index)")
            let cappedAt = work.firstIndex(of: .capVariants(index: index, peakBitRate: peak))
            let readsAt = work.firstIndex { $0.readsBytesOf == index }
            #expect(cappedAt != nil && readsAt != nil && cappedAt! < readsAt!, "item \(index)")
        }
        let again = state.step(.scroll(index: 1, speed: 1), at: 3, facts: [:], estimate: 20_000_000)
        #expect(Set(Self.caps(again).keys).isDisjoint(with: caps.keys), "a cap is kept once decided")
        #expect(state.variantCaps[1] == caps[1])
    }

    @Test("swipes every 2 s at 8 Mbit/s: a third of the estimate, 540p, where a lone player's 0.7 picks 1080p")
    func shortDwells() throws {
        var state = Self.state(Self.entries(8))
        state.dwells = [2, 2.1, 1.9]
        let peak = try #require(Self.caps(state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8e6))[0])
        #expect(abs(peak - 8_000_000 * 2 / 6) < 1)
        #expect(Self.start(8_000_000, peak: peak) == 540)
        #expect(Self.start(8_000_000, peak: 0) == 1080)
    }

    @Test("14 s dwells: 14/18 of the estimate, above the ABR machine's own 0.7: 1080p at 8 Mbit/s")
    func longDwells() throws {
        var state = Self.state(Self.entries(8))
        state.dwells = [14, 12, 16]
        let peak = try #require(Self.caps(state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8e6))[0])
        #expect(abs(peak - 8_000_000 * 14 / 18) < 1)
        #expect(Self.start(8_000_000, peak: peak) == 1080)
    }

    @Test("no estimate: the ABR default's share (500 kbit/s), the lowest variant; the feed's limits when lower")
    func limits() throws {
        var none = Self.state(Self.entries(4))
        let peak = try #require(Self.caps(none.step(.scroll(index: 0, speed: 0), at: 0, facts: [:]))[0])
        #expect(abs(peak - 500_000 * 3 / 7) < 1)
        #expect(Self.start(500_000, peak: peak) == 360)
        var capped = Self.state(Self.entries(4)) { $0.preferredPeakBitRate = 1_000_000 }
        #expect(Self.caps(capped.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8e6))[0] == 1_000_000)
        var cellular = Self.state(Self.entries(4)) {
            $0.profile = .cellular
            $0.expensiveNetworkPeakBitRate = 900_000
        }
        #expect(Self.caps(cellular.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8e6))[0] == 900_000)
    }

    @Test("progressive entries get no cap")
    func progressive() {
        var state = Self.state(PrefetchPlannerTests.feed("vvivvv"))
        #expect(Self.caps(state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 8e6)).isEmpty)
    }

    @Test("a poster made from the entry's own picture caps nothing: items only in its reach get theirs later")
    func pictureCapsNothing() {
        let entries = Self.entries(8).enumerated().map { index, entry in
            var entry = entry
            entry.poster = "http://feed.test/\(index)/thumb.jpg"
            return entry
        }
        var state = Self.state(entries) {
            $0.posterSize = (180, 320)
            $0.pictureLookahead = 6
        }
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 1_000_000)
        let posters = work.compactMap { if case .requestPoster(let index, _) = $0 { return index } else { return nil } }
        let capped = Self.caps(work)
        #expect(posters.contains(6), "the picture's reach: \(posters)")
        #expect(capped[6] == nil && state.variantCaps[6] == nil, "\(capped)")
        #expect(Set(capped.keys).isSubset(of: Set([0] + state.planner.ranked())), "\(capped)")
    }
}
