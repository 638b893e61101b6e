import Feed
import Foundation
import Loading
import Playback
import PlaybackTesting
import Streaming
import Testing

/// The next item's first pictures before the on-screen item's read-ahead (``SwipeShare``): the decision as a value,
/// then feeds over the simulated link under the manual clock.
@Suite("Swipe share: the next item's first frame before the swipe")
struct SwipeShareTests {
    /// The 2 Mbit/s trace's situation: a 2.7 Mbit/s clip on screen half a second, 0.3 s held, 1.5 s dwells, the next
    /// item's first pictures 200 KB.
    static func weakLink(_ change: (inout SwipeShare.Situation) -> Void = { _ in }) -> SwipeShare.Situation {
        var situation = SwipeShare.Situation(
            estimate: 2_000_000, firstPicturesBytes: 200_000, dwells: [1.4, 1.5, 1.7], onScreen: 0.5, heldAhead: 0.3,
            mediaBitRate: 2_700_000, lendsAbove: 0.75)
        change(&situation)
        return situation
    }

    @Test("a link slower than the media on screen: the next item's first pictures go once the margin is held")
    func slowerThanTheMedia() {
        let share = SwipeShare()
        #expect(share.secondsToLend(Self.weakLink()) == .infinity)
        #expect(share.lendsEarly(Self.weakLink()))
        #expect(!share.lendsEarly(Self.weakLink { $0.heldAhead = 0.2 }), "under the margin the item on screen keeps it")
        #expect(!share.lendsEarly(Self.weakLink { $0.estimate = nil }), "no estimate: no early lending")
        #expect(!share.lendsEarly(Self.weakLink { $0.mediaBitRate = nil }), "no bit rate: no early lending")
        var off = share
        off.enabled = false
        #expect(!off.lendsEarly(Self.weakLink()))
    }

    @Test("8 Mbit/s: the item on screen reaches the usual threshold and the first pictures still come before the swipe")
    func fastLink() {
        let share = SwipeShare()
        let fast = Self.weakLink { $0.estimate = 8_000_000 }
        // It fills at 8/2.7 - 1 = 1.96 s a second: 0.45 s to go takes 0.23 s; 200 KB take 0.2 s; 1 s remains.
        #expect(abs(share.secondsToLend(fast) - 0.45 / (8 / 2.7 - 1)) < 1e-9)
        #expect(!share.lendsEarly(fast))
        // The same link, but the swipe is due: nothing to wait for.
        #expect(
            share.lendsEarly(
                Self.weakLink {
                    $0.estimate = 8_000_000
                    $0.onScreen = 1.4
                }))
        // A link faster than the media, the swipe due, but the first pictures (400 KB: 0.4 s) take longer than the
        // 0.3 s held: the item on screen would stall for them, so it fills its buffer first.
        let large = Self.weakLink {
            $0.estimate = 8_000_000
            $0.onScreen = 1.4
            $0.firstPicturesBytes = 400_000
        }
        #expect(!share.lendsEarly(large))
        #expect(
            share.lendsEarly(
                Self.weakLink {
                    $0 = large
                    $0.heldAhead = 0.5
                }))
        // A link slower than the media: it would stall anyway; it lends at the margin.
        #expect(share.lendsEarly(Self.weakLink { $0.firstPicturesBytes = 400_000 }))
        // Long dwells (the 14 s trace) leave time to fill the buffer first, even on a slow link.
        #expect(
            !share.lendsEarly(
                Self.weakLink {
                    $0.estimate = 3_000_000
                    $0.dwells = [14, 12, 20]
                }))
    }

    @Test("the expected dwell is the median of the latest dwells, or the assumed one before any")
    func expectedDwell() {
        let share = SwipeShare()
        #expect(share.expectedDwell([]) == share.assumedDwell)
        #expect(share.expectedDwell([3, 1, 2]) == 2)
        #expect(share.expectedDwell([4, 1, 2, 3]) == 2)
    }

    /// Swipes through six copies of a.mp4 (0.52 Mbit/s) every 1.5 s over a link of `bytesPerSecond`, the feed's
    /// estimate starting from none (`knownLink`: from the link's rate); returns the prepared activations (item,
    /// whether its frame showed already), the trace and the summary.
    static func swipe(
        bytesPerSecond: Int, share: Bool, knownLink: Bool = false
    ) async -> (activations: [(Int, Bool)], trace: [String], summary: FeedSummary) {
        let configuration = FeedScenario.configuration {
            $0.swipeShare.enabled = share
            $0.bandwidthEstimate =
                knownLink ? .known(Double(bytesPerSecond * 8)) : SharedBandwidthEstimate()
        }
        let scenario = FeedScenario(
            entries: FeedScenario.entries(6, of: "a.mp4"), bytesPerSecond: bytesPerSecond, configuration: configuration)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        for index in 1...4 {
            scenario.feed.scroll(to: index, speed: 0.7)
            await scenario.advance(1.5)
        }
        let activations = scenario.events.compactMap { event -> (Int, Bool)? in
            if case .active(let index, true, let hasFrame) = event.kind { return (index, hasFrame) }
            return nil
        }
        return (activations, scenario.trace, scenario.feed.summary)
    }

    @Test("a link slower than the media (0.77x), 1.5 s dwells: each prepared item has its frame at its swipe")
    func frameAtTheSwipeOnAWeakLink() async throws {
        // 50 KB/s against a.mp4's 66: the item on screen never holds the 0.75 s after which the prepared item got the
        // link, so its first frame (28 KB) waited behind the read-ahead on every swipe.
        let before = await Self.swipe(bytesPerSecond: 50_000, share: false)
        let after = await Self.swipe(bytesPerSecond: 50_000, share: true)
        let missed = before.activations.filter { !$0.1 }.count
        #expect(missed >= 2, "without the share: \(before.activations)\n\(before.trace.joined(separator: "\n"))")
        #expect(after.activations.map { $0.0 } == [1, 2, 3, 4], "\(after.trace.joined(separator: "\n"))")
        #expect(
            after.activations.allSatisfy { $0.1 }, "\(after.activations)\n\(after.trace.joined(separator: "\n"))")
    }

    @Test("a link four times the media's rate, the estimate known: the share changes nothing (the same trace)")
    func nothingChangesOnAFastLink() async throws {
        let before = await Self.swipe(bytesPerSecond: 264_000, share: false, knownLink: true)
        let after = await Self.swipe(bytesPerSecond: 264_000, share: true, knownLink: true)
        #expect(after.activations.allSatisfy { $0.1 })
        #expect(before.trace == after.trace, "\(zip(before.trace, after.trace).filter { $0 != $1 }.prefix(5))")
    }
}
