import Feed
import Testing

/// The planner's rules, input by input, without media.
@Suite("Prefetch planner")
struct PrefetchPlannerTests {
    static func feed(_ kinds: String) -> [FeedEntry] {
        kinds.enumerated().map { index, kind in
            FeedEntry(url: "http://feed.test/\(index)", kind: kind == "v" ? .video : .image)
        }
    }

    @Test("the active item first, the next video prepared, then ahead by distance within the budget")
    func startOfFeed() {
        var planner = PrefetchPlanner(entries: Self.feed("vvivvv"))
        let actions = planner.scroll(to: 0)
        // Budget 5: active video 2 + prepared video 2 + the image 1.
        #expect(actions == [.activate(index: 0), .prepare(index: 1), .start(index: 2, byteLimit: nil)])
        #expect(planner.costInFlight == 5)
        #expect(planner.state(of: 3) == .idle, "no room for another video")
    }

    @Test("ranking follows the scroll direction: ahead first, then behind")
    func ranking() {
        var planner = PrefetchPlanner(entries: Self.feed("vvvvvvvvvv"))
        _ = planner.scroll(to: 5)
        #expect(planner.ranked() == [6, 7, 8, 9, 4])
        _ = planner.scroll(to: 4)
        #expect(planner.direction == -1)
        #expect(planner.ranked() == [3, 2, 1, 0, 5])
    }

    @Test("an inactive video is fetched only to its first bytes; an image whole")
    func limits() {
        var policy = PrefetchPolicy()
        policy.preparesNext = false
        policy.budget = 7
        var planner = PrefetchPlanner(entries: Self.feed("vvi"), policy: policy)
        let actions = planner.scroll(to: 0)
        #expect(actions.contains(.start(index: 1, byteLimit: 200 << 10)))
        #expect(actions.contains(.start(index: 2, byteLimit: nil)))
    }

    @Test("moving on: the old active item stops, the prepared one becomes active, the window slides")
    func advance() {
        var planner = PrefetchPlanner(entries: Self.feed("vvvvvvvv"))
        _ = planner.scroll(to: 0)
        #expect(planner.state(of: 1) == .prepared)
        let actions = planner.scroll(to: 1)
        #expect(actions.first == .deactivate(index: 0))
        #expect(actions.contains(.activate(index: 1)))
        #expect(actions.contains(.prepare(index: 2)))
        #expect(planner.state(of: 1) == .active)
    }

    @Test("a fast fling cancels what left the window and fetches nothing but the active item")
    func fling() {
        var policy = PrefetchPolicy()
        policy.budget = 9
        var planner = PrefetchPlanner(entries: Self.feed("vvvvvvvvvvvvvvvvvvvv"), policy: policy)
        _ = planner.scroll(to: 0)
        #expect(planner.state(of: 1) == .prepared)
        #expect(planner.state(of: 2) == .prefetching(byteLimit: 200 << 10))
        let actions = planner.scroll(to: 12, speed: 20)
        #expect(actions.contains(.release(index: 1)))
        #expect(actions.contains(.cancel(index: 2)))
        #expect(actions.contains(.activate(index: 12)))
        #expect(!actions.contains { if case .start = $0 { return true } else { return false } })
        #expect(planner.costInFlight == 2)
        // Once the fling settles, the window around the new item fills again.
        let settled = planner.scroll(to: 12, speed: 0)
        #expect(settled.contains(.prepare(index: 13)))
    }

    @Test("whatever leaves the window is cancelled, farthest first")
    func window() {
        var policy = PrefetchPolicy()
        policy.preparesNext = false
        policy.budget = 100
        var planner = PrefetchPlanner(entries: Self.feed("iiiiiiiiiiii"), policy: policy)
        _ = planner.scroll(to: 0)
        #expect((1...4).allSatisfy { planner.state(of: $0) == .prefetching(byteLimit: nil) })
        let actions = planner.scroll(to: 2)
        // The window: 3...6 ahead and 1 behind; 0 is the old active item.
        #expect(
            actions.contains(.start(index: 5, byteLimit: nil)) && actions.contains(.start(index: 6, byteLimit: nil)))
        #expect(!actions.contains(.cancel(index: 1)), "1 is behind, still in the window")
        _ = planner.scroll(to: 6)
        #expect(planner.state(of: 1) == .idle && planner.state(of: 3) == .idle && planner.state(of: 4) == .idle)
    }

    @Test("network profiles: less on cellular, only the active item when constrained")
    func profiles() {
        var planner = PrefetchPlanner(entries: Self.feed("vvvvvv"))
        _ = planner.scroll(to: 0)
        #expect(planner.costInFlight == 4)
        let cellular = planner.networkChanged(.cellular)
        #expect(cellular.contains(.release(index: 1)), "3 leaves room for the active video and an image only")
        #expect(planner.costInFlight == 2)
        _ = planner.networkChanged(.constrained)
        #expect(planner.costInFlight == 2)
        let back = planner.networkChanged(.unconstrained)
        #expect(back.contains(.prepare(index: 1)))
    }

    @Test("finished prefetches free their budget; failures are final and never block the rest")
    func finishAndFail() {
        var policy = PrefetchPolicy()
        policy.preparesNext = false
        var planner = PrefetchPlanner(entries: Self.feed("vvvvvv"), policy: policy)
        _ = planner.scroll(to: 0)
        #expect(planner.state(of: 1) == .prefetching(byteLimit: 200 << 10) && planner.state(of: 3) == .idle)
        let afterFinish = planner.finished(1)
        #expect(planner.state(of: 1) == .prefetched)
        #expect(afterFinish == [.start(index: 2, byteLimit: 200 << 10)], "the next in rank, and no more than fits")
        let afterFail = planner.failed(2)
        #expect(planner.state(of: 2) == .failed)
        #expect(afterFail.contains(.start(index: 3, byteLimit: 200 << 10)))
        #expect(planner.failed(2).isEmpty, "once")
        // A failed item that becomes active is not activated; the feed goes on past it.
        let onFailed = planner.scroll(to: 2)
        #expect(!onFailed.contains(.activate(index: 2)))
        #expect(onFailed.contains(.deactivate(index: 0)))
    }
}
