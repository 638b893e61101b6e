import Feed
import Locking
import MediaCore
import Playback
import Testing

/// An endless feed's pages, in memory: page `n` holds `size` entries after the first page's; a request may fail
/// once (``failOnce``), and the source ends after ``pages`` pages.
final class MemoryPages: FeedPageSource {
    let size: Int
    let pages: Int
    private let state = Locked((served: 0, requests: [Int](), failOnce: Set<Int>()))

    init(size: Int, pages: Int, failOnce: Set<Int> = []) {
        self.size = size
        self.pages = pages
        state.withLock { $0.failOnce = failOnce }
    }

    /// The entry counts the feed asked after, in order.
    var requests: [Int] { state.withLock { $0.requests } }

    func nextPage(after count: Int) throws(MediaError) -> [FeedEntry] {
        let failing = state.withLock { s -> Bool in
            s.requests.append(count)
            return s.failOnce.remove(count) != nil
        }
        if failing {
            throw MediaError(
                .httpStatus, url: "http://feed.test/pages?after=\(count)", operation: .read, code: 503,
                reason: "HTTP 503")
        }
        let page = state.withLock { s -> Int? in
            guard s.served < pages else { return nil }
            s.served += 1
            return s.served
        }
        guard page != nil else { return [] }
        return FeedScenario.entries(count..<(count + size))
    }
}

/// Endless feeds: pages appended to a live feed as the user nears the end, without losing the pool, the prepared
/// player or the prefetches; a failed page is an event and the feed goes on; the list stays bounded.
@Suite("Feed pages under the manual clock")
struct FeedPagingTests {
    /// Scrolls items 0 through `last`, one a second.
    static func scroll(_ scenario: FeedScenario, through last: Int) async {
        for index in 0...last {
            scenario.feed.scroll(to: index, speed: index == 0 ? 0 : 2)
            await scenario.advance(1)
        }
    }

    static func acquires(_ scenario: FeedScenario) -> Int {
        scenario.events.filter { if case .poolAcquire = $0.kind { return true } else { return false } }.count
    }

    static func firstFrames(_ scenario: FeedScenario) -> Set<Int> {
        Set(
            scenario.events.compactMap {
                if case .firstFrame(let index, _, _) = $0.kind { return index } else { return nil }
            })
    }

    @Test("pages come as the user nears the end; every item reached plays; the pool works as for a whole list")
    func pagesAppended() async throws {
        let pages = MemoryPages(size: 6, pages: 2)
        let paged = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 400_000, pageSource: pages)
        defer { paged.stop() }
        await Self.scroll(paged, through: 14)
        let trace = paged.trace.joined(separator: "\n")
        #expect(paged.feed.entries.endIndex == 18, "\(trace)")
        #expect(pages.requests == [6, 12, 18], "one request at a time, each when the end came within 5 items")
        #expect(paged.trace.contains { $0.contains("feed.page #6 count=6") })
        #expect(paged.trace.contains { $0.contains("feed.page #12 count=6") })
        #expect(paged.trace.contains { $0.contains("feed.pagesEnded #18") })
        #expect(Self.firstFrames(paged) == Set(0...14), "\(trace)")
        let summary = paged.feed.summary
        #expect(summary.pagesLoaded == 2 && summary.entriesAppended == 12 && summary.pageFailures == 0)
        #expect(summary.failures == 0)

        // The same scroll over the 18 entries given at once: the same players handed out, no more.
        let whole = FeedScenario(entries: FeedScenario.entries(18), bytesPerSecond: 400_000)
        defer { whole.stop() }
        await Self.scroll(whole, through: 14)
        #expect(Self.acquires(paged) == Self.acquires(whole))
        #expect(Self.firstFrames(whole) == Self.firstFrames(paged))
        #expect(summary.activations == whole.feed.summary.activations)
    }

    @Test("the item after a page's end is prepared from the page: a page appended does not disturb what is in flight")
    func appendKeepsPreparedPlayer() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(2), bytesPerSecond: 400_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        #expect(scenario.feed.state(of: 1) == .prepared)
        let player = try #require(scenario.feed.player(for: 1))
        let acquiresBefore = Self.acquires(scenario)
        scenario.feed.append(FeedScenario.entries(2..<6))
        await scenario.advance(1)
        #expect(scenario.feed.player(for: 1) === player, "the prepared player stays")
        #expect(scenario.feed.state(of: 1) == .prepared)
        #expect(Self.acquires(scenario) == acquiresBefore, "no player taken for the append itself")
        // The plan takes the new entries in as it would have from the start.
        let whole = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 400_000)
        defer { whole.stop() }
        whole.feed.scroll(to: 0)
        await whole.advance(3)
        #expect((2..<6).map { scenario.feed.state(of: $0) } == (2..<6).map { whole.feed.state(of: $0) })
        scenario.feed.scroll(to: 1, speed: 2)
        await scenario.advance(0.1)
        let active = scenario.events.compactMap { event -> Bool? in
            if case .active(1, _, let hasFrame) = event.kind { return hasFrame }
            return nil
        }
        #expect(active == [true], "the prepared item came on screen with its frame")
    }

    @Test("a page that fails is an event naming it; the feed plays on and asks again a second later")
    func pageFails() async throws {
        let pages = MemoryPages(size: 6, pages: 2, failOnce: [12])
        let scenario = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 400_000, pageSource: pages)
        defer { scenario.stop() }
        await Self.scroll(scenario, through: 14)
        let trace = scenario.trace.joined(separator: "\n")
        let failures = scenario.events.compactMap { event -> String? in
            if case .pageFailed(12, let error) = event.kind { return error }
            return nil
        }
        #expect(failures.count == 1, "\(trace)")
        #expect(failures.first?.contains("http://feed.test/pages?after=12") == true)
        #expect(failures.first?.contains("503") == true)
        #expect(pages.requests.prefix(3) == [6, 12, 12], "asked again a second later (at the next item)")
        #expect(Self.firstFrames(scenario) == Set(0...14), "\(trace)")
        #expect(scenario.feed.summary.pageFailures == 1)
    }

    @Test("an endless feed keeps a bounded list: entries far behind leave it, the figures still count them")
    func boundedList() async throws {
        var configuration = FeedScenario.configuration()
        configuration.paging.entriesKeptBehind = 3
        let pages = MemoryPages(size: 6, pages: 5)
        let scenario = FeedScenario(
            entries: FeedScenario.entries(6), bytesPerSecond: 400_000, configuration: configuration,
            pageSource: pages)
        defer { scenario.stop() }
        await Self.scroll(scenario, through: 24)
        let entries = scenario.feed.entries
        #expect(entries.endIndex == 36)
        #expect(entries.startIndex >= 24 - 3 - 1, "kept: 3 behind the active item (and the window)")
        #expect(entries.count <= 16, "\(entries.startIndex)..<\(entries.endIndex)")
        #expect(Self.firstFrames(scenario) == Set(0...24))
        let summary = scenario.feed.summary
        #expect(summary.activations == 25)
        #expect(summary.bytesPlayed > 0 && summary.bytesFetched >= summary.bytesPlayed)
    }
}
