import Feed
import Foundation
import Playback
import Testing

/// A 2x2 grid under the manual clock, over the simulated link: four visible videos play at once, one heard.
@Suite("Feed grids under the manual clock")
struct FeedGridTests {
    /// Eight videos of a.mp4 (with audio) in a 2x2 grid over a link of 600 KB/s, about twice what four of them
    /// play (66 KB/s each).
    static func grid() -> FeedScenario {
        FeedScenario(
            entries: FeedScenario.entries(12, of: "a.mp4"), bytesPerSecond: 600_000,
            configuration: FeedScenario.configuration {
                $0.layout = .grid(columns: 2, rows: 2)
                $0.audio = true
            })
    }

    /// The visible items whose players have the sound.
    static func heard(_ scenario: FeedScenario, among items: [Int]) -> [Int] {
        items.filter { index in scenario.feed.player(for: index).map { !$0.isMuted } ?? false }
    }

    static func firstFrames(_ scenario: FeedScenario) -> [Int: Double] {
        var out: [Int: Double] = [:]
        for event in scenario.events {
            if case .firstFrame(let index, let latency, _) = event.kind { out[index] = latency }
        }
        return out
    }

    /// Shows the first two rows, scrolls a row, taps item 5; returns the trace.
    static func browse() async -> [String] {
        let scenario = grid()
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        scenario.feed.scroll(to: 2, speed: 1)
        await scenario.advance(2)
        scenario.feed.focus(index: 5)
        await scenario.advance(1)
        return scenario.trace
    }

    @Test("four items show their first frames and play, one heard; the next row is prepared; the pool has room")
    func fourPlay() async throws {
        let scenario = Self.grid()
        defer { scenario.stop() }
        #expect(scenario.feed.pool.size == 6, "four cells and a row prepared")
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        let trace = scenario.trace.joined(separator: "\n")
        #expect(scenario.feed.visibleIndices == [0, 1, 2, 3])
        #expect(Set(Self.firstFrames(scenario).keys) == [0, 1, 2, 3], "\(trace)")
        for index in 0..<4 {
            #expect(scenario.feed.state(of: index) == .active)
            let player = try #require(scenario.feed.player(for: index))
            #expect(player.timeControlStatus == .playing, "#\(index) plays")
        }
        #expect(Self.heard(scenario, among: [0, 1, 2, 3]) == [0], "the first visible item alone is heard")
        #expect(scenario.feed.audibleIndex == 0)
        #expect(scenario.trace.contains { $0.contains("feed.audible #0") })
        // The next row waits on its first frames, muted.
        for index in [4, 5] {
            #expect(scenario.feed.state(of: index) == .prepared, "#\(index): \(trace)")
            #expect(scenario.trace.contains { $0.contains("feed.prepared #\(index)") && $0.contains("ready=true") })
        }
        #expect(scenario.feed.summary.stalls == 0, "\(trace)")
        #expect(!scenario.trace.contains { $0.contains("pool.acquire") && $0.contains("waited") })
    }

    @Test("a scroll by a row starts the next row from its prepared players and releases the row that left")
    func scrollARow() async throws {
        let scenario = Self.grid()
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(3)
        let before = scenario.events.count
        scenario.feed.scroll(to: 2, speed: 1)
        await scenario.advance(2)
        let after = Array(scenario.events.dropFirst(before))
        let trace = scenario.trace.joined(separator: "\n")
        #expect(scenario.feed.visibleIndices == [2, 3, 4, 5])
        // The row that came into view was prepared: its frames were there at the scroll.
        let entered = after.compactMap { event -> (Int, Bool, Bool)? in
            if case .active(let index, let prepared, let hasFrame) = event.kind { return (index, prepared, hasFrame) }
            return nil
        }
        #expect(entered.map(\.0) == [4, 5], "\(trace)")
        #expect(entered.allSatisfy { $0.1 && $0.2 }, "\(trace)")
        #expect(Set(Self.firstFrames(scenario).keys) == [0, 1, 2, 3, 4, 5])
        // The row that left gave its players back; the next one is prepared; nothing waited for a player.
        for index in [0, 1] {
            #expect(scenario.feed.player(for: index) == nil, "#\(index) holds no player")
            #expect(
                after.contains { event in
                    if case .poolRelease(_, index) = event.kind { return true }
                    return false
                })
        }
        for index in [6, 7] { #expect(scenario.feed.state(of: index) == .prepared, "#\(index): \(trace)") }
        let held = (0..<12).compactMap { scenario.feed.player(for: $0) }
        #expect(held.count == 6 && Set(held.map(ObjectIdentifier.init)).count == 6)
        #expect(!scenario.trace.contains { $0.contains("waited") })
        // The sound went to the first visible item.
        #expect(scenario.feed.audibleIndex == 2)
        #expect(Self.heard(scenario, among: [2, 3, 4, 5]) == [2], "\(trace)")
        for index in 2...5 {
            #expect(scenario.feed.player(for: index)?.timeControlStatus == .playing, "#\(index) plays")
        }
        #expect(scenario.feed.summary.stalls == 0, "\(trace)")
        #expect(scenario.feed.summary.activations == 6)
    }

    @Test("focus moves the sound to the tapped item; an item not on screen takes nothing")
    func focus() async throws {
        let scenario = Self.grid()
        defer { scenario.stop() }
        scenario.feed.scroll(to: 0)
        await scenario.advance(2)
        scenario.feed.focus(index: 3)
        await scenario.advance(0.1)
        #expect(scenario.feed.audibleIndex == 3)
        #expect(Self.heard(scenario, among: [0, 1, 2, 3]) == [3])
        scenario.feed.focus(index: 7)
        await scenario.advance(0.1)
        #expect(scenario.feed.audibleIndex == 3, "item 7 is not on screen")
        // A scroll that keeps it on screen keeps its sound.
        scenario.feed.scroll(to: 2, speed: 1)
        await scenario.advance(1)
        #expect(scenario.feed.audibleIndex == 3)
        #expect(Self.heard(scenario, among: [2, 3, 4, 5]) == [3], "\(scenario.trace.joined(separator: "\n"))")
    }

    @Test("the same grid scroll gives the same trace on every run")
    func deterministic() async throws {
        let first = await Self.browse()
        #expect(first.contains { $0.contains("feed.audible #5") }, "\(first.joined(separator: "\n"))")
        let again = await Self.browse()
        #expect(again == first, "\(again.difference(from: first))")
    }
}

extension FeedGridTests {
    @Test("a grid's players decode on their own thread each, into twice the single layout's queue")
    func gridDecoders() {
        var configuration = FeedConfiguration()
        #expect(configuration.effectiveDecoderThreads == 2)
        #expect(configuration.effectiveDecodedVideoBytes == Player.defaultDecodedVideoBytes)
        configuration.layout = .grid(columns: 2, rows: 2)
        #expect(configuration.effectiveDecoderThreads == 1)
        #expect(configuration.effectiveDecodedVideoBytes == 2 * Player.defaultDecodedVideoBytes)
        configuration.decodedVideoBytes = 4 << 20
        configuration.gridDecoderThreads = 3
        #expect(configuration.effectiveDecoderThreads == 3)
        #expect(configuration.effectiveDecodedVideoBytes == 4 << 20)
        let pool = PlayerPool(size: 1, audio: false, decoderThreads: 1, decodedVideoBytes: 4 << 20)
        #expect(pool.players.allSatisfy { $0.decodedVideoBytes == 4 << 20 && $0.decoderThreads == 1 })
    }
}
