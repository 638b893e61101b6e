import Feed
import Foundation
import Loading
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// A feed driven by scripted scrolls under the manual clock, over the simulated link.
@Suite("Feed scenarios under the manual clock")
struct FeedScenarioTests {
    /// Scrolls through a 12-item feed: dwell, a quick swipe, a fling, back; returns the trace and the summary.
    static func browse() async -> (trace: [String], summary: FeedSummary) {
        let scenario = FeedScenario(entries: FeedScenario.entries(12), bytesPerSecond: 150_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        scenario.feed.scroll(to: 1, speed: 1)
        await scenario.advance(2)
        scenario.feed.scroll(to: 2, speed: 2)
        await scenario.advance(0.5)
        scenario.feed.scroll(to: 8, speed: 12)
        await scenario.advance(2)
        scenario.feed.scroll(to: 7, speed: 1)
        await scenario.advance(2)
        return (scenario.trace, scenario.feed.summary)
    }

    @Test("the same scroll gives the same trace on every run")
    func deterministic() async throws {
        let first = await Self.browse()
        #expect(first.trace.contains { $0.contains("feed.firstFrame #8") }, "\(first.trace.joined(separator: "\n"))")
        for _ in 0..<2 {
            let again = await Self.browse()
            if again.trace != first.trace {
                let diff = again.trace.difference(from: first.trace).map { change -> String in
                    switch change {
                    case .insert(let offset, let line, _): return "+\(offset) \(line)"
                    case .remove(let offset, let line, _): return "-\(offset) \(line)"
                    }
                }
                Issue.record("another trace:\n\(diff.joined(separator: "\n"))")
            }
            #expect(again.summary.activations == first.summary.activations)
            #expect(again.summary.firstFrame == first.summary.firstFrame)
        }
    }

    @Test("the next video is prepared: becoming active it shows a frame at once and plays within a step")
    func preparedNext() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(6), bytesPerSecond: 150_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        #expect(scenario.feed.state(of: 1) == .prepared)
        #expect(scenario.trace.contains { $0.contains("feed.prepared #1") && $0.contains("ready=true") })
        scenario.feed.scroll(to: 1)
        await scenario.advance(0.5)
        let active = scenario.events.compactMap { event -> (Bool, Bool)? in
            if case .active(1, let prepared, let hasFrame) = event.kind { return (prepared, hasFrame) }
            return nil
        }
        #expect(active.first.map { $0 == (true, true) } == true, "\(scenario.trace.joined(separator: "\n"))")
        let latency = scenario.events.compactMap { event -> Double? in
            if case .firstFrame(1, let latency, true) = event.kind { return latency }
            return nil
        }
        #expect(latency.count == 1 && latency[0] <= 0.05 + 1e-9, "\(latency)")
        // Only the first item, cold, kept the user waiting.
        #expect(scenario.feed.summary.loaderImpressions == 1)
    }

    @Test("on a link barely above the media's rate, the prepared video buffered behind the active one starts at once")
    func preparedStartsOnASlowLink() async throws {
        // a.mp4 after a.mp4 at 90 KB/s against their 66: the prepared item's bytes came while the item on screen had
        // the link, at a rate below its media's, which once held its start until the rate was measured again.
        let scenario = FeedScenario(entries: FeedScenario.entries(4, of: "a.mp4"), bytesPerSecond: 90_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(5)
        #expect(scenario.feed.state(of: 1) == .prepared)
        scenario.feed.scroll(to: 1)
        await scenario.advance(1)
        let started = scenario.events.compactMap { event -> (Double, Bool)? in
            if case .started(1, let latency, let prepared) = event.kind { return (latency, prepared) }
            return nil
        }
        #expect(
            started.first.map { $0.1 && $0.0 <= 0.05 + 1e-9 } == true,
            "\(started) \(scenario.trace.joined(separator: "\n"))")
    }

    @Test("on a link 1.5 times the media's rate, swiping every 2 s, each prepared video has its frame at its swipe")
    func preparedFrameOnABusyLink() async throws {
        // a.mp4 is 66 KB/s: the item on screen fills its buffer at about half a second a second, and reached the
        // 1.5 s it once had to hold before the next item's first frame got the link late in a 2 s dwell or never.
        let scenario = FeedScenario(entries: FeedScenario.entries(6, of: "a.mp4"), bytesPerSecond: 100_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        for index in 1...4 {
            scenario.feed.scroll(to: index, speed: 0.5)
            await scenario.advance(2)
        }
        let activations = scenario.events.compactMap { event -> (Int, Bool)? in
            if case .active(let index, true, let hasFrame) = event.kind { return (index, hasFrame) }
            return nil
        }
        let trace = scenario.trace.joined(separator: "\n")
        let indices = activations.map { $0.0 }
        let withFrame = activations.filter { $0.1 }.map { $0.0 }
        #expect(indices == [1, 2, 3, 4], "\(trace)")
        #expect(withFrame == indices, "\(trace)")
        #expect(scenario.feed.summary.stallSeconds == 0, "the item on screen never stalled for it")
    }

    @Test("an inactive video is fetched to what its first pictures need, as its header says, not a fixed 200 KB")
    func inactiveToFirstPictures() async throws {
        // Nothing prepared, so that the items ahead are inactive videos, fetched one at a time in the budget.
        let scenario = FeedScenario(
            entries: FeedScenario.entries(4, of: "a.mp4"), bytesPerSecond: 150_000,
            configuration: FeedScenario.configuration { $0.policy.preparesNext = false })
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(10)
        let needed = try #require(try Demuxer(url: MediaFixtures.path("a.mp4")).firstPicturesEnd())
        #expect(needed != 200 << 10 && needed < 398_568)
        let finished = scenario.events.compactMap { event -> (index: Int, limit: Int64?, bytes: Int64)? in
            if case .prefetch(let index, let limit, let bytes, .finished) = event.kind { return (index, limit, bytes) }
            return nil
        }
        let trace = scenario.trace.joined(separator: "\n")
        #expect(finished.map { $0.index }.sorted() == [1, 2, 3], "\(trace)")
        #expect(finished.allSatisfy { $0.limit == needed && $0.bytes == needed }, "\(needed): \(trace)")
        for index in [1, 2, 3] {
            let url = scenario.feed.entries[index].url
            // Its header first, then what its first pictures need: the more of the two, nothing past it.
            let header = PrefetchPolicy().inactiveVideoHeaderBytes
            #expect(scenario.loading.cache.cachedRanges(of: url) == [0..<max(needed, header)], "#\(index)")
        }
    }

    @Test("with a duration limit, an inactive video is fetched to the end of its first seconds' video samples")
    func inactiveToDuration() async throws {
        let scenario = FeedScenario(
            entries: FeedScenario.entries(2, of: "a.mp4"), bytesPerSecond: 150_000,
            configuration: FeedScenario.configuration {
                $0.policy.preparesNext = false
                $0.policy.inactiveVideoSeconds = 2
            })
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(10)
        let twoSeconds = try #require(try Demuxer(url: MediaFixtures.path("a.mp4")).firstPicturesEnd(within: 2))
        let firstPictures = try #require(try Demuxer(url: MediaFixtures.path("a.mp4")).firstPicturesEnd())
        #expect(twoSeconds > firstPictures + 50_000)
        let url = scenario.feed.entries[1].url
        #expect(scenario.loading.cache.cachedRanges(of: url) == [0..<twoSeconds], "\(scenario.trace)")
    }

    @Test("a fast fling cancels the prefetches that left the window and prefetches nothing it passes")
    func flingCancels() async throws {
        // A slow link: the prefetches of items 1-4 are still running when the fling comes.
        let scenario = FeedScenario(entries: FeedScenario.entries(20), bytesPerSecond: 40_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(1)
        let started = Set(
            scenario.events.compactMap { event -> Int? in
                if case .prefetch(let index, _, _, .started) = event.kind { return index }
                return nil
            })
        #expect(!started.isEmpty)
        let before = scenario.events.count
        scenario.feed.scroll(to: 15, speed: 20)
        await scenario.advance(0.5)
        let after = scenario.events.dropFirst(before)
        for index in started where index < 11 {
            let ended = scenario.events.contains { event in
                if case .prefetch(index, _, _, let outcome) = event.kind { return outcome != .started }
                return false
            }
            #expect(ended, "item \(index)'s prefetch ended or was cancelled")
            #expect(scenario.feed.state(of: index) == .idle || scenario.feed.state(of: index) == .prefetching)
        }
        #expect(
            after.contains { event in
                if case .prefetch(_, _, _, .cancelled) = event.kind { return true }
                return false
            })
        // During the fling nothing but the active item loads.
        #expect(
            !after.contains { event in
                if case .prefetch(let index, _, _, .started) = event.kind { return index != 15 }
                return false
            })
        #expect(scenario.network.activeTransfers <= 1, "\(scenario.trace.joined(separator: "\n"))")
    }

    @Test("a failing item is skipped: the feed prefetches and plays past it")
    func failingItem() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(8, missing: [2]), bytesPerSecond: 150_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        scenario.feed.scroll(to: 1)
        await scenario.advance(2)
        #expect(scenario.feed.state(of: 2) == .failed, "\(scenario.trace.joined(separator: "\n"))")
        #expect(scenario.trace.contains { $0.contains("feed.failed #2") && $0.contains("404") })
        // Items past it still load.
        #expect(scenario.feed.state(of: 3) != .idle)
        scenario.feed.scroll(to: 2)
        await scenario.advance(0.5)
        scenario.feed.scroll(to: 3)
        await scenario.advance(1)
        #expect(scenario.trace.contains { $0.contains("feed.firstFrame #3") })
        let summary = scenario.feed.summary
        #expect(summary.failures == 1)
        #expect(summary.loaderImpressions >= 1)
    }

    @Test(
        """
        while the active item's buffer is short it has the link: prefetches hold until it is full; the prepared item \
        reads only while the active one plays and is likely to keep up (or, lent the link for its first pictures, \
        until its frame shows), before its own first frame
        """,
        arguments: [false, true])
    func activeGetsTheLink(swipeShare: Bool) async throws {
        // 60 KB/s against a.mp4's 66 KB/s: the active item is short of bytes all along.
        let scenario = FeedScenario(
            entries: FeedScenario.entries(6), bytesPerSecond: 60_000,
            configuration: FeedScenario.configuration { $0.swipeShare.enabled = swipeShare })
        defer { scenario.stop() }
        let held = { (indices: Range<Int>) in
            indices.reduce(Int64(0)) { total, index in
                total
                    + scenario.loading.cache.cachedRanges(of: scenario.feed.entries[index].url)
                    .reduce(Int64(0)) { $0 + Int64($1.count) }
            }
        }
        scenario.feed.scroll(to: 0)
        var claimedSteps = 0
        var (prefetched, preparedOutOfTurn): (Int64, Int64) = (0, 0)
        for _ in 0..<60 {
            let claimed = scenario.loading.cache.isLinkClaimed
            let active = scenario.feed.player(for: 0)
            let activePlays =
                active?.timeControlStatus == .playing && active?.currentItem?.isPlaybackLikelyToKeepUp == true
            let preparedHasFrame = scenario.events.contains {
                if case .prepared(1, _, true) = $0.kind { true } else { false }
            }
            let before = (held(2..<6), held(1..<2))
            await scenario.clock.advance(bySeconds: 0.05)
            guard claimed && scenario.loading.cache.isLinkClaimed else { continue }
            claimedSteps += 1
            prefetched += held(2..<6) - before.0
            // Lent the link early (``SwipeShare``), the prepared item reads until its frame shows, the item on screen
            // playing or not; never after.
            if (!activePlays && !swipeShare) || preparedHasFrame { preparedOutOfTurn += held(1..<2) - before.1 }
        }
        #expect(claimedSteps > 20, "the active item claimed the link")
        #expect(prefetched == 0, "prefetches took \(prefetched) bytes while the active item had the link")
        // A transfer gives way within a step's bytes (3 KB here) once the active item stops playing.
        #expect(preparedOutOfTurn < 3_000, "the prepared item took \(preparedOutOfTurn) bytes out of turn")
    }

    @Test("trimming memory drops the cached bytes outside the window and the prepared player")
    func trim() async throws {
        let scenario = FeedScenario(entries: FeedScenario.entries(12), bytesPerSecond: 400_000)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        scenario.feed.scroll(to: 8)
        await scenario.advance(1)
        let cached = { (index: Int) in
            !scenario.loading.cache.cachedRanges(of: scenario.feed.entries[index].url).isEmpty
        }
        #expect(cached(1) && cached(0))
        #expect(scenario.feed.state(of: 9) == .prepared)
        scenario.feed.trimMemory()
        await scenario.advance(0.1)
        #expect(!cached(0) && !cached(1), "outside the window: dropped")
        #expect(cached(8), "the active item's bytes stay")
        #expect(scenario.feed.state(of: 9) != .prepared)
        #expect(scenario.trace.contains { $0.contains("feed.trimmed #0") })
        #expect(scenario.feed.summary.trims > 0)
    }
}

@Suite("Feed posters")
struct FeedPosterTests {
    @Test("with posters on, the item on screen and the window get theirs; one scrolled to later is ready at once")
    func posters() async throws {
        let scenario = FeedScenario(
            entries: FeedScenario.entries(8), bytesPerSecond: 400_000,
            configuration: FeedScenario.configuration { $0.posterSize = (90, 160) })
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        // Poster work runs on threads of its own: give them real time between the steps, as much as a loaded machine
        // needs (30 s only turns a hang into a failure).
        let deadline = ContinuousClock.now + .seconds(30)
        while scenario.feed.summary.postersReady < 4, ContinuousClock.now < deadline {
            await scenario.clock.advance(bySeconds: 0.05)
            try await Task.sleep(for: .milliseconds(5))
        }
        await scenario.feed.eventsDelivered()
        #expect(scenario.trace.contains { $0.contains("feed.poster #0") }, "\(scenario.trace.joined(separator: "\n"))")
        #expect(scenario.feed.summary.postersReady >= 4)
        scenario.feed.scroll(to: 1)
        await scenario.clock.advance(bySeconds: 0.05)
        await scenario.feed.eventsDelivered()
        let poster = scenario.events.compactMap { event -> Double? in
            if case .poster(1, let latency, _) = event.kind { return latency }
            return nil
        }
        #expect(poster == [0], "ready before it came on screen")
        let made = try #require(scenario.feed.posters)
        #expect(made.statistics.failures == 0)
    }
}
