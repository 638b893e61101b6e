import Loading
import Streaming
import Testing

@testable import Feed

/// Size probes under a byte cap: a remote video whose entry tells no size is sized (the cache, or a `HEAD`) before
/// anything of it loads; over the cap by its probe it is capped like an entry that said so; a failed probe is
/// reported and the item loads as one without a size. The summary counts capped and tapped items.
@Suite("Feed state: size probes and the capped count")
struct FeedSizeProbeTests {
    static let cap: Int64 = 20 << 20

    /// Four remote videos without sizes, with posters, on `profile`.
    static func state(_ profile: NetworkProfile) -> FeedState {
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        configuration.posterSize = (180, 320)
        configuration.profile = profile
        return FeedState(
            entries: PrefetchPlannerTests.feed("vvvv"), configuration: configuration, poolSize: 3, manualClock: true)
    }

    static func probes(_ work: [FeedWork]) -> [Int] {
        work.compactMap { if case .probeSize(let index, _) = $0 { return index } else { return nil } }
    }

    static func answer(_ bytes: Int64) -> Result<ResourceLength, MediaError> {
        .success(ResourceLength(bytes: bytes, fromCache: false))
    }

    @Test("cellular: the item on screen and the window are sized first; nothing of them loads before the answers")
    func probedBeforeLoading() {
        var state = Self.state(.cellular)
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        // On screen first, then the window (ahead by distance, within its four).
        #expect(Self.probes(work) == [0, 1, 2, 3], "\(work)")
        #expect(work.contains(.probeSize(index: 0, url: "http://feed.test/0")))
        for index in 0..<4 { #expect(!FeedByteCapTests.loads(work, index), "item \(index): \(work)") }
        #expect(state.planner.state(of: 0) == .sizing)
        #expect(state.summary.sizeProbes == 4 && state.summary.activations == 0)
        // Item 0 is small: it becomes active, its activation counted from the scroll (the wait is the user's).
        let small = state.step(.sizeProbed(index: 0, Self.answer(2 << 20)), at: 0.25, facts: [:])
        #expect(small.contains(.emit(.sized(index: 0, bytes: 2 << 20, fromCache: false), time: 0.25)))
        #expect(small.contains(.play(index: 0, video: true)), "\(small)")
        #expect(state.slots[0]?.activatedAt == 0)
        // Item 1 is heavy by its probe: never prepared nor prefetched; capped when scrolled to.
        let heavy = state.step(.sizeProbed(index: 1, Self.answer(40 << 20)), at: 0.3, facts: [:])
        #expect(!FeedByteCapTests.loads(heavy, 1), "\(heavy)")
        let onto = state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        #expect(FeedByteCapTests.capped(onto) == [.capped(index: 1, bytes: 40 << 20, cap: Self.cap)], "\(onto)")
        #expect(!FeedByteCapTests.loads(onto, 1) && Self.probes(onto).isEmpty, "asked once: \(onto)")
        #expect(state.summary.cappedItems == 1 && state.summary.cappedItemsTapped == 0)
        // Left, back: the same item counts once; the tap counts once.
        _ = state.step(.scroll(index: 2, speed: 1), at: 2, facts: [:])
        _ = state.step(.scroll(index: 1, speed: 1), at: 3, facts: [:])
        let tap = state.step(.play(index: 1), at: 4, facts: [:])
        _ = state.step(.play(index: 1), at: 4.5, facts: [:])
        #expect(FeedByteCapTests.loads(tap, 1), "\(tap)")
        #expect(state.summary.cappedItems == 1 && state.summary.cappedItemsTapped == 1)
    }

    @Test("a failed probe is reported; the item loads as an entry without a size (never capped)")
    func failedProbe() {
        var state = Self.state(.cellular)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let error = MediaError(
            .httpStatus, url: "http://feed.test/0", operation: .read, code: 404,
            reason: "the server answered 404 Not Found")
        let work = state.step(.sizeProbed(index: 0, .failure(error)), at: 0.1, facts: [:])
        #expect(work.contains(.emit(.sizeProbeFailed(index: 0, error: error.description), time: 0.1)), "\(work)")
        #expect(work.contains(.play(index: 0, video: true)) && FeedByteCapTests.capped(work).isEmpty)
        #expect(state.summary.sizeProbeFailures == 1)
    }

    @Test("no probe without a cap, for a size the entry tells, for local files, manifests and images")
    func noProbe() {
        var wifi = Self.state(.unconstrained)
        #expect(Self.probes(wifi.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])).isEmpty)
        var entries = [
            FeedEntry(url: "http://feed.test/sized.mp4", kind: .video, byteSize: 1 << 20),
            FeedEntry(url: "/media/local.mp4", kind: .video),
            FeedEntry(url: "http://feed.test/live.m3u8", kind: .video),
            FeedEntry(url: "http://feed.test/still.jpg", kind: .image),
        ]
        var planner = PrefetchPlanner(entries: entries, profile: .cellular)
        #expect(!planner.scroll(to: 0).contains { if case .probeSize = $0 { true } else { false } })
        #expect((0..<4).allSatisfy { !planner.needsSize($0) })
        // Renditions without sizes: the smallest one is sized.
        entries = [
            FeedEntry(renditions: [
                ProgressiveRendition(url: "http://feed.test/720.mp4", bitrate: 2_000_000),
                ProgressiveRendition(url: "http://feed.test/360.mp4", bitrate: 500_000),
            ])
        ]
        #expect(entries[0].sizeProbeURL == "http://feed.test/360.mp4")
    }

    @Test("the link changes to one without a cap while the item on screen is sized: it plays at once")
    func capGoes() {
        var state = Self.state(.cellular)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let work = state.step(.network(.unconstrained), at: 0.5, facts: [:])
        #expect(work.contains(.play(index: 0, video: true)), "\(work)")
        // The late answer changes nothing.
        let late = state.step(.sizeProbed(index: 0, Self.answer(40 << 20)), at: 1, facts: [:])
        #expect(FeedByteCapTests.capped(late).isEmpty && state.planner.state(of: 0) == .active)
    }
}
