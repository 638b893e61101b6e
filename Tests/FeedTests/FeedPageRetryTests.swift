import MediaCore
import Testing

@testable import Feed

/// A page that failed is asked for again after a delay that doubles with each failure in a row (`FeedPaging`'s
/// `retryDelay`, at most `maximumRetryDelay`), whatever the user does meanwhile; a page that comes resets it.
@Suite("Feed state: a failed page's retries back off")
struct FeedPageRetryTests {
    static let error = MediaError(
        .httpStatus, url: "http://feed.test/pages", operation: .read, code: 503, reason: "HTTP 503")

    static func requests(_ work: [FeedWork]) -> [Int] {
        work.compactMap { if case .requestPage(let after) = $0 { return after } else { return nil } }
    }

    static func state() -> FeedState {
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        return FeedState(
            entries: PrefetchPlannerTests.feed("vvvvvv"), configuration: configuration, poolSize: 3,
            manualClock: true, pages: true)
    }

    @Test("1 s, then 2 s, then 4 s after failures in a row; moving on asks no sooner; a page resets the delay")
    func backoff() {
        var state = Self.state()
        #expect(Self.requests(state.step(.scroll(index: 2, speed: 0), at: 0, facts: [:])) == [6])
        _ = state.step(.pageLoaded(after: 6, .failure(Self.error)), at: 0, facts: [:])
        #expect(Self.requests(state.step(.scroll(index: 3, speed: 1), at: 0.5, facts: [:])).isEmpty, "moved, too soon")
        #expect(Self.requests(state.step(.memorySampled(1), at: 1.0, facts: [:])) == [6], "1 s after")
        _ = state.step(.pageLoaded(after: 6, .failure(Self.error)), at: 1.0, facts: [:])
        #expect(Self.requests(state.step(.scroll(index: 4, speed: 1), at: 2.9, facts: [:])).isEmpty)
        #expect(Self.requests(state.step(.memorySampled(1), at: 3.0, facts: [:])) == [6], "2 s after the second")
        _ = state.step(.pageLoaded(after: 6, .failure(Self.error)), at: 3.0, facts: [:])
        #expect(Self.requests(state.step(.memorySampled(1), at: 6.9, facts: [:])).isEmpty)
        #expect(Self.requests(state.step(.memorySampled(1), at: 7.0, facts: [:])) == [6], "4 s after the third")
        _ = state.step(
            .pageLoaded(after: 6, .success(PrefetchPlannerTests.feed("vvvvvv").map { $0 })), at: 7.0, facts: [:])
        #expect(state.summary.pageFailures == 3 && state.summary.pagesLoaded == 1)
        // Near the new end: asked at once, and a failure then waits 1 s again.
        #expect(Self.requests(state.step(.scroll(index: 8, speed: 1), at: 8, facts: [:])) == [12])
        _ = state.step(.pageLoaded(after: 12, .failure(Self.error)), at: 8, facts: [:])
        #expect(Self.requests(state.step(.memorySampled(1), at: 8.9, facts: [:])).isEmpty)
        #expect(Self.requests(state.step(.memorySampled(1), at: 9.0, facts: [:])) == [12])
    }

    @Test("the delay doubles up to its bound")
    func bound() {
        var paging = FeedPaging()
        #expect((1...7).map { paging.retryDelay(afterFailures: $0) } == [1, 2, 4, 8, 16, 30, 30])
        paging.maximumRetryDelay = 5
        #expect(paging.retryDelay(afterFailures: 100) == 5)
    }
}
