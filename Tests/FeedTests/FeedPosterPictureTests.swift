import Locking
import PlaybackTesting
import Testing

@testable import Feed

/// Entries naming a poster picture (`FeedEntry.poster`, a server's thumbnail): the feed's poster is made from it,
/// for local files too, and asking for it reads none of the video's bytes (no rendition is chosen for it).
@Suite("Feed state: posters from the entries' own pictures")
struct FeedPosterPictureTests {
    static func requested(_ work: [FeedWork]) -> [Int] {
        work.compactMap { item in
            if case .requestPoster(let index, _) = item { return index }
            return nil
        }
    }

    @Test("local files: only those naming a picture get a poster")
    func localWithPicture() {
        let entries = (0..<4).map { index in
            FeedEntry(url: "/media/\(index).mp4", kind: .video, poster: index == 1 ? "/media/1.jpg" : nil)
        }
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        configuration.posterSize = (180, 320)
        var state = FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        #expect(Self.requested(work) == [1], "the local files without a picture get none (their players are as quick)")
    }

    @Test("renditions and a picture: the poster chooses no rendition; the item's load or prefetch still does")
    func noRenditionForPicture() {
        let entries = FeedRenditionStateTests.entries(6).enumerated().map { index, entry in
            var entry = entry
            entry.poster = "http://feed.test/\(index)/thumb.jpg"
            return entry
        }
        var state = FeedRenditionStateTests.state(entries) { $0.posterSize = (180, 320) }
        let work = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:], estimate: 1_000_000)
        let requested = Self.requested(work)
        #expect(requested.count >= 3, "the window's posters: \(requested)")
        let chosen = FeedRenditionStateTests.chosen(work)
        #expect(chosen.keys.sorted() == [0, 1], "the active item and the prepared one only: \(chosen)")
        let later = requested.filter { $0 > 1 }
        #expect(!later.isEmpty && later.allSatisfy { state.renditionChoices[$0] == nil })
        // Chosen later, at the estimate of the time its bytes are asked for.
        let next = state.step(.scroll(index: 1, speed: 1), at: 2, facts: [:], estimate: 8_000_000)
        #expect(FeedRenditionStateTests.chosen(next)[2] == "http://feed.test/2/high.mp4")
    }
}

/// The same over a slow simulated link, under the manual clock: the pictures' few kilobytes come before the videos'
/// first pictures could, so a swipe shows the poster where the video's own first keyframe would not be there yet.
@Suite("Feed scenario: posters from the entries' own pictures on a slow link")
struct FeedPosterPictureScenarioTests {
    /// What item 1's cell shows at a swipe after `seconds`, with or without pictures named by the entries.
    static func swipe(after seconds: Double, pictures: Bool) async throws -> (FeedEvent.Picture?, FeedScenario) {
        let entries = FeedScenario.entries(8, of: "a.mp4").enumerated().map { index, entry in
            var entry = entry
            if pictures { entry.poster = "http://feed.test/\(index)/still.jpg" }
            return entry
        }
        let scenario = FeedScenario(
            entries: entries, bytesPerSecond: 40_000,
            configuration: FeedScenario.configuration { $0.posterSize = (90, 160) })
        let made = Locked<Set<String>>([])
        scenario.feed.posters?.observeEvents { event in
            if case .completed(let key, _, _) = event { made.withLock { _ = $0.insert(key.source) } }
        }
        scenario.feed.scroll(to: 0)
        // Poster work runs on threads of its own: give them real time between the steps (a loaded machine's threads
        // lag; more real time only lets work keep up with the clock: 20 ms a step was short for CI's fresh process once,
        // item 1's picture not asked for in time).
        for _ in 0..<Int(seconds / 0.05) {
            await scenario.clock.advance(bySeconds: 0.05)
            try await Task.sleep(for: .milliseconds(60))
        }
        // Whether item 1's picture came over the link by now is the clock's (the simulated link's) to decide; making
        // the poster from its bytes is CPU work on real threads: wait for that (CI's fresh process took longer than
        // the steps' sleeps, and the swipe showed nothing).
        let picture = "http://feed.test/1/still.jpg"
        let size = try Int64(MediaFixtures.bytes("still.jpg").count)
        if pictures,
            scenario.loading.cache.cachedRanges(of: picture).contains(where: { $0.contains(0) && $0.upperBound >= size }
            )
        {
            try await waitUntil("item 1's poster, made from its picture's bytes") {
                made.withLock { $0.contains(picture) }
            }
        }
        await scenario.feed.eventsDelivered()
        scenario.feed.scroll(to: 1)
        await scenario.clock.advance(bySeconds: 0.01)
        await scenario.feed.eventsDelivered()
        let shown = scenario.events.compactMap { event -> FeedEvent.Picture? in
            if case .picture(1, let shows) = event.kind { return shows }
            return nil
        }
        return (shown.first, scenario)
    }

    @Test("pictures named: the swipe shows the poster, made from the picture's bytes")
    func withPictures() async throws {
        let (shown, scenario) = try await Self.swipe(after: 1.5, pictures: true)
        defer { scenario.stop() }
        #expect(shown == .poster, "\(scenario.trace.joined(separator: "\n"))")
        #expect(!scenario.loading.cache.cachedRanges(of: "http://feed.test/1/still.jpg").isEmpty)
        #expect(scenario.feed.summary.posterSwipes == 1 && scenario.feed.summary.blankSwipes == 0)
    }

    @Test("none named: at the same swipe the video's own first keyframe has not come yet (nothing shows)")
    func withoutPictures() async throws {
        let (shown, scenario) = try await Self.swipe(after: 1.5, pictures: false)
        defer { scenario.stop() }
        #expect(shown == .nothing, "\(scenario.trace.joined(separator: "\n"))")
        #expect(scenario.feed.summary.blankSwipes == 1)
    }
}

/// How far ahead posters from the entries' own pictures reach (`pictureLookahead`), beyond the prefetch window.
@Suite("Feed state: pictures ahead of the prefetch window")
struct FeedPictureLookaheadTests {
    static func state(pictures: Bool, lookahead: Int = 4) -> FeedState {
        let entries = (0..<12).map { index in
            FeedEntry(
                url: "http://feed.test/\(index).mp4", kind: .video,
                poster: pictures ? "http://feed.test/\(index).jpg" : nil)
        }
        var configuration = FeedConfiguration()
        configuration.memoryBudget = nil
        configuration.posterSize = (180, 320)
        configuration.pictureLookahead = lookahead
        return FeedState(entries: entries, configuration: configuration, poolSize: 3, manualClock: true)
    }

    @Test("pictures named: the next eight items get theirs at once; keyframe posters stay within the window")
    func reach() {
        var pictures = Self.state(pictures: true, lookahead: 8)
        let asked = FeedPosterPictureTests.requested(pictures.step(.scroll(index: 0, speed: 0), at: 0, facts: [:]))
        #expect(Set(asked) == Set(0...8), "\(asked)")
        #expect(asked.first == 0, "the item on screen first")
        var keyframes = Self.state(pictures: false, lookahead: 8)
        let window = FeedPosterPictureTests.requested(keyframes.step(.scroll(index: 0, speed: 0), at: 0, facts: [:]))
        #expect(Set(window) == Set([0] + keyframes.planner.ranked()), "\(window)")
        #expect(window.count < asked.count)
    }

    @Test("a swipe asks for the item newly in reach; the end of the feed bounds it; 0 turns it off")
    func moves() {
        var state = Self.state(pictures: true)
        _ = state.step(.scroll(index: 0, speed: 0), at: 0, facts: [:])
        let next = FeedPosterPictureTests.requested(state.step(.scroll(index: 1, speed: 1), at: 1, facts: [:]))
        #expect(next == [5], "\(next)")
        let end = FeedPosterPictureTests.requested(state.step(.scroll(index: 11, speed: 1), at: 2, facts: [:]))
        #expect(end.allSatisfy { $0 < 12 })
        var off = Self.state(pictures: true, lookahead: 0)
        let window = FeedPosterPictureTests.requested(off.step(.scroll(index: 0, speed: 0), at: 0, facts: [:]))
        #expect(Set(window) == Set([0] + off.planner.ranked()))
    }
}
