import Feed
import Testing

/// Byte caps end to end, over the simulated link under the manual clock: on cellular not one byte of the capped
/// video is fetched (its poster is a picture of its own) until the user taps it; unconstrained it is prepared.
@Suite("Feed scenario: byte caps on cellular")
struct FeedByteCapScenarioTests {
    static let heavy = "http://feed.test/1/a.mp4"

    /// Six clips, item 1 said to be 40 MiB by its entry, each naming a poster picture; the feed scrolled to item 0.
    static func scenario(_ profile: NetworkProfile) -> FeedScenario {
        let entries = FeedScenario.entries(6, of: "a.mp4").enumerated().map { index, entry in
            var entry = entry
            entry.poster = "http://feed.test/\(index)/still.jpg"
            if index == 1 { entry.byteSize = 40 << 20 }
            return entry
        }
        let configuration = FeedScenario.configuration {
            $0.profile = profile
            $0.posterSize = (90, 160)
        }
        return FeedScenario(entries: entries, bytesPerSecond: 400_000, configuration: configuration)
    }

    /// Advances `seconds` in steps, giving the poster threads real time between them (as the poster scenarios do).
    static func run(_ scenario: FeedScenario, _ seconds: Double) async throws {
        for _ in 0..<Int(seconds / 0.05) {
            await scenario.clock.advance(bySeconds: 0.05)
            try await Task.sleep(for: .milliseconds(10))
        }
        await scenario.feed.eventsDelivered()
    }

    @Test("cellular: nothing of the capped video is fetched, on screen or ahead, until tapped; then it plays")
    func cappedUntilTapped() async throws {
        let scenario = Self.scenario(.cellular)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        try await Self.run(scenario, 2)
        #expect(
            scenario.loading.cache.cachedRanges(of: Self.heavy).isEmpty, "\(scenario.trace.joined(separator: "\n"))")
        scenario.feed.scroll(to: 1, speed: 1)
        try await Self.run(scenario, 3)
        let trace = scenario.trace.joined(separator: "\n")
        #expect(scenario.loading.cache.cachedRanges(of: Self.heavy).isEmpty, "\(trace)")
        // Its poster comes (asked for by a poster thread, which a loaded machine may start late: steps go on until
        // it came, 30 s only turning a hang into a failure).
        let still = "http://feed.test/1/still.jpg"
        let deadline = ContinuousClock.now + .seconds(30)
        while scenario.loading.cache.cachedRanges(of: still).isEmpty, ContinuousClock.now < deadline {
            try await Self.run(scenario, 0.05)
        }
        #expect(!scenario.loading.cache.cachedRanges(of: still).isEmpty, "its poster came")
        #expect(scenario.loading.cache.cachedRanges(of: Self.heavy).isEmpty, "\(trace)")
        let capped = scenario.events.filter { $0.name == "feed.capped" }
        #expect(capped.map(\.kind) == [.capped(index: 1, bytes: 40 << 20, cap: 20 << 20)], "\(trace)")
        #expect(scenario.feed.state(of: 1) == .capped)
        #expect(!scenario.events.contains { if case .firstFrame(1, _, _) = $0.kind { true } else { false } })
        // The tap: it loads and shows its first frame.
        scenario.feed.play(index: 1)
        try await Self.run(scenario, 3)
        #expect(!scenario.loading.cache.cachedRanges(of: Self.heavy).isEmpty)
        #expect(
            scenario.events.contains { if case .firstFrame(1, _, _) = $0.kind { true } else { false } },
            "\(scenario.trace.joined(separator: "\n"))")
        #expect(scenario.events.filter { $0.name == "feed.capped" }.count == 1)
    }

    @Test("unconstrained: the same video is prepared as the item ahead (its bytes fetched)")
    func unconstrained() async throws {
        let scenario = Self.scenario(.unconstrained)
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        try await Self.run(scenario, 2)
        #expect(
            !scenario.loading.cache.cachedRanges(of: Self.heavy).isEmpty, "\(scenario.trace.joined(separator: "\n"))")
        #expect(!scenario.events.contains { $0.name == "feed.capped" })
    }
}
