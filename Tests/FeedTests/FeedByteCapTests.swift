import Streaming
import Testing

@testable import Feed

/// Byte caps (`PrefetchPolicy.autoloadByteCap`): on cellular a video whose entry says it is over the cap is neither
/// fetched ahead nor prepared, and as the active item it shows its poster (`feed.capped`) until the user taps it.
@Suite("Feed state: byte caps by network profile")
struct FeedByteCapTests {
    static let heavy: Int64 = 40 << 20

    /// Four remote videos; item 1 is `heavy` by its entry (others small or unknown), with posters.
    static func state(_ profile: NetworkProfile, size: Int64? = heavy) -> FeedState {
        var entries = PrefetchPlannerTests.feed("vvvv")
        entries[1].byteSize = size
        entries[2].byteSize = 2 << 20
        // The others say their size too (an unknown one is probed first: FeedSizeProbeTests).
        entries[0].byteSize = 1 << 20
        entries[3].byteSize = 1 << 20
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        configuration.posterSize = (180, 320)
        configuration.profile = profile
        return FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
    }

    /// Whether `work` asks for item `index`'s media bytes (a player's load, a prefetch), or plays it.
    static func loads(_ work: [FeedWork], _ index: Int) -> Bool {
        work.contains { item in
            switch item {
            case .load(index, _, _), .startPrefetch(index, _, _, _, _), .startFirstPictures(index, _, _),
                .play(index, _):
                return true
            default: return false
            }
        }
    }

    static func capped(_ work: [FeedWork]) -> [FeedEvent.Kind] {
        work.compactMap { item in
            if case .emit(let kind, _) = item, case .capped = kind { return kind }
            return nil
        }
    }

    @Test("cellular: the heavy item ahead is neither prepared nor prefetched; its poster is asked for")
    func notAhead() {
        var state = Self.state(.cellular)
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(!Self.loads(work, 1), "\(work)")
        #expect(work.contains(.requestPoster(index: 1, visible: false)))
        #expect(state.planner.state(of: 1) == .idle)
        #expect(Self.capped(work).isEmpty, "said as it becomes active, not before")
    }

    @Test("cellular: scrolled to, the heavy item loads nothing, shows its poster; said once; a tap loads and plays it")
    func activeThenTap() {
        var state = Self.state(.cellular)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let work = state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        #expect(!Self.loads(work, 1), "\(work)")
        #expect(!work.contains(.claimLink(.active)), "nothing of it reads the link")
        #expect(Self.capped(work) == [.capped(index: 1, bytes: Self.heavy, cap: 20 << 20)])
        #expect(state.planner.state(of: 1) == .capped)
        #expect(state.slots[1]?.playerIndex == nil)
        // Its poster comes; the link changes profile within caps; the poster again: nothing more is said or loaded.
        var later = state.step(.posterReady(index: 1, fromCache: false), at: 1.2, facts: [:])
        later += state.step(.network(.cellular), at: 1.5, facts: [:])
        later += state.step(.trim, at: 1.6, facts: [:])
        #expect(Self.capped(later).isEmpty && !Self.loads(later, 1), "\(later)")
        // The tap: it becomes active, gets a player and plays.
        let tap = state.step(.play(index: 1), at: 2, facts: [:])
        #expect(Self.loads(tap, 1), "\(tap)")
        #expect(tap.contains(.claimLink(.active)))
        #expect(tap.contains(.emit(.active(index: 1, prepared: false, hasFrame: false), time: 2)))
        #expect(state.planner.state(of: 1) == .active)
        #expect(Self.capped(tap).isEmpty)
        #expect(state.summary.activations == 2)
    }

    @Test("leaving a capped item untapped releases nothing; coming back says it again; a tapped item stays uncapped")
    func leaveAndReturn() {
        var state = Self.state(.cellular)
        _ = state.step(.scroll(index: 1, speed: 0), at: 0, facts: [:])
        let away = state.step(.scroll(index: 2, speed: 1), at: 1, facts: [:])
        #expect(!away.contains { if case .release = $0 { true } else { false } })
        #expect(!away.contains(.releaseLink(.active)))
        #expect(state.summary.watchedSeconds == 0, "nothing of it was watched")
        let back = state.step(.scroll(index: 1, speed: 1), at: 2, facts: [:])
        #expect(Self.capped(back).count == 1 && !Self.loads(back, 1))
        _ = state.step(.play(index: 1), at: 3, facts: [:])
        _ = state.step(.scroll(index: 0, speed: 1), at: 4, facts: [:])
        let again = state.step(.scroll(index: 1, speed: 1), at: 5, facts: [:])
        // Tapped once: it plays as any other item from then on.
        #expect(Self.capped(again).isEmpty && again.contains(.play(index: 1, video: true)), "\(again)")
    }

    @Test("unconstrained: no cap, the same feed prepares and plays the heavy item")
    func unconstrained() {
        var state = Self.state(.unconstrained)
        let first = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(first.contains(.load(index: 1, player: 1, active: false)))
        let work = state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        #expect(Self.capped(work).isEmpty && work.contains(.play(index: 1, video: true)))
    }

    @Test("unknown size: sized before it loads, not capped meanwhile; a size at the cap is not over it")
    func unknownSize() {
        var unknown = Self.state(.cellular, size: nil)
        let first = unknown.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(first.contains(.probeSize(index: 1, url: "http://feed.test/1")) && !Self.loads(first, 1))
        let work = unknown.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])
        #expect(Self.capped(work).isEmpty && !Self.loads(work, 1) && unknown.planner.state(of: 1) == .sizing)
        var atCap = Self.state(.cellular, size: 20 << 20)
        let exact = atCap.step(.scroll(index: 1, speed: 0), at: 0, facts: [:])
        #expect(Self.capped(exact).isEmpty && Self.loads(exact, 1))
    }

    @Test("the link changes: a capped item on screen plays when the cap goes; a prepared one over it is let go")
    func networkChanges() {
        var state = Self.state(.cellular)
        _ = state.step(.scroll(index: 1, speed: 0), at: 0, facts: [:])
        let wifi = state.step(.network(.unconstrained), at: 1, facts: [:])
        #expect(Self.loads(wifi, 1) && state.planner.state(of: 1) == .active, "\(wifi)")
        var ahead = Self.state(.unconstrained)
        _ = ahead.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(ahead.planner.state(of: 1) == .prepared)
        let cellular = ahead.step(.network(.cellular), at: 1, facts: [:])
        #expect(cellular.contains(.release(index: 1, player: 1)), "\(cellular)")
        // What plays stays: the item on screen is not capped under the user's eyes.
        var playing = Self.state(.unconstrained)
        _ = playing.step(.scroll(index: 1, speed: 0), at: 0, facts: [:])
        _ = playing.step(.network(.constrained), at: 1, facts: [:])
        #expect(playing.planner.state(of: 1) == .active)
    }

    @Test("sizes from renditions: the smallest, by its size or its bit rate by the duration; images are never capped")
    func expectedSizes() {
        let sized = FeedEntry(renditions: [
            ProgressiveRendition(url: "http://feed.test/a/720.mp4", bitrate: 4_000_000, byteSize: 30 << 20),
            ProgressiveRendition(url: "http://feed.test/a/360.mp4", bitrate: 1_000_000, byteSize: 8 << 20),
        ])
        #expect(sized.expectedByteSize == 8 << 20)
        let timed = FeedEntry(
            renditions: [ProgressiveRendition(url: "http://feed.test/b/360.mp4", bitrate: 8_000_000)], duration: 60)
        #expect(timed.expectedByteSize == 60_000_000)
        #expect(
            FeedEntry(renditions: [ProgressiveRendition(url: "http://x/c.mp4", bitrate: 1)]).expectedByteSize == nil)
        var planner = PrefetchPlanner(
            entries: [timed, FeedEntry(url: "http://feed.test/big.jpg", kind: .image, byteSize: 1 << 30)],
            profile: .cellular)
        #expect(planner.overCap(0)?.bytes == 60_000_000)
        #expect(planner.overCap(1) == nil)
        let actions = planner.scroll(to: 0)
        #expect(actions.first == .capped(index: 0, bytes: 60_000_000, cap: 20 << 20), "\(actions)")
        #expect(!actions.contains(.activate(index: 0)))
        var policy = PrefetchPolicy()
        policy.cellularAutoloadByteCap = nil
        #expect(planner.policyChanged(policy).contains(.activate(index: 0)), "no cap configured: it plays")
    }
}
