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

    @Test("the first scroll: the servers in the window not loaded now and not connected, once each, nearest first")
    func firstScroll() {
        var state = Self.state()
        let window = state.planner.ranked()
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], connected: [Self.origin("cdn-c")])
        let loaded = Set(work.compactMap(\.readsBytesOf))
        let preconnected = Self.preconnects(work)
        // What the planner reads now (the active item, the prepared one, prefetches) opens its own connections.
        let expected = ([0] + state.planner.ranked()).filter { index in
            !loaded.contains(index) && !["cdn-c"].contains(Self.host(index))
        }
        var seen: Set<String> = ["cdn-c"]
        for index in loaded { seen.insert(Self.host(index)) }
        let firstPerHost = expected.filter { seen.insert(Self.host($0)).inserted }
        #expect(preconnected == firstPerHost)
        #expect(!preconnected.isEmpty, "the window reaches a server nothing reads from yet (window \(window))")
        #expect(Set(preconnected.map(Self.host)).count == preconnected.count, "one preconnect per server")
        #expect(!preconnected.contains { Self.host($0) == "cdn-a" }, "the active item's server is being read")
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
        let work = state.step(
            .scroll(index: 2, speed: 1), at: 5, facts: [:],
            connected: Set(["cdn-a", "cdn-b", "cdn-c"].map(Self.origin)))
        let preconnected = Self.preconnects(work)
        #expect(preconnected.allSatisfy { !["cdn-a", "cdn-b", "cdn-c"].contains(Self.host($0)) })
        let window = Set([2] + state.planner.ranked())
        #expect(preconnected.allSatisfy { window.contains($0) })
        let loaded = Set(work.compactMap(\.readsBytesOf).map(Self.host))
        if window.contains(4) && !loaded.contains("cdn-d") { #expect(preconnected == [4]) }
    }

    static func host(_ index: Int) -> String {
        ["cdn-a", "cdn-a", "cdn-b", "cdn-c", "cdn-d", "cdn-a"][index]
    }
}
