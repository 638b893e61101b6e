import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// Skips from the window: a seek with origin `.pictureInPictureSkip`, completed exactly once.
@Suite("Driver skips")
struct SkipDriverTests {
    /// The player's events up to and including the first one `isLast` accepts (a sentinel the test causes); throws
    /// if it does not come (see `withDeadline`).
    static func events(
        _ stream: AsyncStream<PlayerEvent>, until isLast: @escaping @Sendable (PlayerEvent) -> Bool
    ) async throws -> [PlayerEvent] {
        try await withDeadline("the sentinel event") {
            var seen: [PlayerEvent] = []
            for await event in stream {
                seen.append(event)
                if isLast(event) { break }
            }
            return seen
        }
    }

    static func isPausedStatus(_ event: PlayerEvent) -> Bool {
        if case .timeControlStatus(.paused, _) = event.kind { return true }
        return false
    }

    @Test("a skip seeks with origin pictureInPictureSkip and completes exactly once")
    func skip() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 1)
        let stream = rig.player.events()
        let outcome = await window.skip(by: .seconds(2))
        #expect(outcome == .completed(SkipRequestID(rawValue: 1), finished: true))
        #expect(rig.player.currentTime() == Ticks.seconds(3))
        rig.player.pause()
        let events = try await Self.events(stream, until: Self.isPausedStatus)
        let requested = events.compactMap { event -> UInt64? in
            guard case .seekRequested(let id, let target, _, let exact, let origin) = event.kind else { return nil }
            #expect(origin == .pictureInPictureSkip && exact && target == Ticks.seconds(3))
            return id
        }
        let completed = events.compactMap { event -> (UInt64, Bool)? in
            guard case .seekCompleted(let id, let finished, _, _, _) = event.kind else { return nil }
            return (id, finished)
        }
        #expect(requested.count == 1)
        #expect(completed.count == 1 && completed.first?.0 == requested.first && completed.first?.1 == true)
        await rig.clock.advance(by: .zero)
        #expect(window.playbackState.elapsed == Ticks.seconds(3))
        let states = await rig.finish().playbackStates
        #expect(states.contains { $0.elapsed == Ticks.seconds(3) }, "the jump is reported")
    }

    @Test("requiresLinearPlayback refuses skips, without any seek")
    func linearPlayback() async throws {
        let rig = await Rig.make("a.mp4")
        rig.controller.requiresLinearPlayback = true
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 1)
        let stream = rig.player.events()
        #expect(await window.skip(by: .seconds(2)) == .refused)
        #expect(await window.skip(by: .seconds(-1)) == .refused)
        rig.player.pause()
        let events = try await Self.events(stream, until: Self.isPausedStatus)
        #expect(!events.contains { if case .seekRequested = $0.kind { true } else { false } })
        #expect(rig.player.currentTime() == Ticks.seconds(1))
        rig.controller.requiresLinearPlayback = false
        #expect(await window.skip(by: .seconds(-1)) == .completed(SkipRequestID(rawValue: 1), finished: true))
        #expect(rig.player.currentTime() == .zero)
        _ = await rig.finish()
    }

    @Test("a skip back past the start lands at zero")
    func skipBackClamps() async throws {
        let rig = await Rig.make("b.mp4")
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.4)
        #expect(await window.skip(by: .seconds(-15)) == .completed(SkipRequestID(rawValue: 1), finished: true))
        #expect(rig.player.currentTime() == .zero)
        _ = await rig.finish()
    }
}
