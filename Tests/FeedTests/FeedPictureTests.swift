import Testing

@testable import Feed

/// What the cell shows as an item becomes active (`feed.picture`): its first frame, its poster (the stand-in), or
/// nothing; and the summary's count of swipes that showed nothing at all.
@Suite("Feed state: the picture a swipe shows")
struct FeedPictureTests {
    static func pictures(_ work: [FeedWork]) -> [FeedEvent.Picture] {
        work.compactMap { item in
            if case .emit(.picture(_, let shows), _) = item { return shows }
            return nil
        }
    }

    static func withPosters(_ kinds: String) -> FeedState {
        FeedStateTests.state(kinds) { $0.posterSize = (180, 320) }
    }

    @Test("no frame and no poster: the cell shows nothing, counted for a swipe but not for the feed's first item")
    func nothing() {
        var state = FeedStateTests.state("vvvv")
        #expect(Self.pictures(state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])) == [.nothing])
        #expect(state.summary.blankSwipes == 0, "the first item is not a swipe")
        #expect(Self.pictures(state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])) == [.nothing])
        #expect(state.summary.blankSwipes == 1 && state.summary.posterSwipes == 0)
    }

    @Test("the prepared player's first frame: the cell shows it")
    func firstFrame() {
        var state = Self.withPosters("vvvv")
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        _ = state.step(.loaded(index: 1, player: 1, since: 1), at: 0, facts: [:])
        _ = state.step(
            .player(player: 1, event: FeedStateTests.event(.firstFrame(latency: 0), 2, at: 0.5)), at: 0.5, facts: [:])
        _ = state.step(.posterReady(index: 1, fromCache: false), at: 0.6, facts: [:])
        #expect(Self.pictures(state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])) == [.firstFrame])
        #expect(state.summary.blankSwipes == 0 && state.summary.posterSwipes == 0)
    }

    @Test("no frame yet, its poster ready: the cell shows the poster")
    func poster() {
        var state = Self.withPosters("vvvv")
        let first = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(first.contains(.requestPoster(index: 1, visible: false)), "the item ahead gets its poster")
        _ = state.step(.posterReady(index: 1, fromCache: false), at: 0.4, facts: [:])
        #expect(Self.pictures(state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])) == [.poster])
        #expect(state.summary.posterSwipes == 1 && state.summary.blankSwipes == 0)
    }

    @Test("nothing at the swipe, then its poster comes: the cell shows the poster from then on (said once)")
    func posterLater() {
        var state = Self.withPosters("vvvv")
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(Self.pictures(state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:])) == [.nothing])
        let work = state.step(.posterReady(index: 1, fromCache: false), at: 1.2, facts: [:])
        #expect(work.contains(.emit(.picture(index: 1, shows: .poster), time: 1.2)))
        #expect(Self.pictures(state.step(.posterReady(index: 1, fromCache: true), at: 1.3, facts: [:])).isEmpty)
        #expect(state.summary.blankSwipes == 1, "the swipe showed nothing")
    }
}
