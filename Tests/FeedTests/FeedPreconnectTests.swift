import Loading
import Testing

@testable import Feed

/// Warm connections, decided by the feed's state: where the window moves, each server of the items around the
/// active one without a connection gets one preconnect, nearest item first; a server with a connection, or one an
/// item of the same step loads or prefetches from, gets none.
@Suite("Feed state: preconnects to the window's servers")
struct FeedPreconnectTests {
    /// Six videos: 0, 1 and 5 on cdn-a, 2 on cdn-b, 3 on cdn-c, 4 on cdn-d.
    static func state() -> FeedState {
        let hosts = ["cdn-a", "cdn-a", "cdn-b", "cdn-c", "cdn-d", "cdn-a"]
        let entries = hosts.enumerated().map { FeedEntry(url: "http://\($1).test/\($0).mp4", kind: .video) }
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        return FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
    }

    static func preconnects(_ work: [FeedWork]) -> [Int] {
        work.compactMap { item in
            if case .preconnect(let index) = item { return index }
            return nil
        }
    }

    static func origin(_ host: String) -> HTTPOrigin { HTTPOrigin(url: "http://\(host).test/")! }

    @Test("the first scroll: the window's servers that are neither connected nor read now, once each, nearest first")
    func firstScroll() {
        var state = Self.state()
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], connected: [Self.origin("cdn-c")])
        // Budget 5: the active item 0 and the prepared 1 (cdn-a, read now: their own connections); the window
        // 1...4 (items 2 to 4 wait for budget): cdn-b (2) and cdn-d (4); cdn-c (3) is connected.
        #expect(Set(work.compactMap(\.readsBytesOf)) == [0, 1])
        #expect(Self.preconnects(work) == [2, 4])
        // The preconnects come after the step's other work.
        #expect(work.suffix(2) == [.preconnect(index: 2), .preconnect(index: 4)])
    }

    @Test("every server connected: no preconnect; not read (nil): none either")
    func connectedOrUnknown() {
        var state = Self.state()
        let all = Set(["cdn-a", "cdn-b", "cdn-c", "cdn-d"].map(Self.origin))
        #expect(Self.preconnects(state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], connected: all)).isEmpty)
        var unknown = Self.state()
        #expect(Self.preconnects(unknown.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])).isEmpty)
    }

    @Test("a later scroll preconnects to the servers the window reaches then, and not to connected ones")
    func laterScroll() {
        var state = Self.state()
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], connected: [])
        // Active 2 (cdn-b), prepared 3 (cdn-c), window 3, 4, 5 and 1 behind: only cdn-d (4) has no connection.
        let work = state.step(
            .scroll(index: 2, speed: 1), at: 5, facts: [:],
            connected: Set(["cdn-a", "cdn-b", "cdn-c"].map(Self.origin)))
        #expect(Self.preconnects(work) == [4])
        var again = Self.state()
        _ = again.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], connected: [])
        #expect(
            Self.preconnects(again.step(.scroll(index: 2, speed: 1), at: 5, facts: [:], connected: [])) == [4, 5],
            "nothing connected: cdn-d (4) and cdn-a (5; 1 behind is the same server)")
    }
}
