import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// Hot swaps while Picture in Picture is active, both ways apps do them, on the real clips.
@Suite("Content swaps while active")
struct SwapTests {
    /// Plays a.mp4 in Picture in Picture for a second, swaps to b.mp4 by `mode`, plays B to its end.
    @Test(
        "the window shows only B's frames after a swap, without a gap, on the same playback state",
        arguments: ContentSwapMode.allCases)
    func swap(mode: ContentSwapMode) async throws {
        let rig = await Rig.make("a.mp4")
        rig.system.recordsShownFrames = true
        let window = try await rig.startPictureInPicture()
        let initial = try #require(window.playbackState.snapshot())
        #expect(initial.contentDuration == Ticks.seconds(6) && initial.itemName == "a.mp4")

        await Ticks.play(rig.clock, for: 1)
        let swapIndex = window.shownFrames.count
        let swapTime = rig.system.now
        var newPlayer: Player?
        switch mode {
        case .item:
            rig.player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("b.mp4")))
        case .source:
            let prepared = try await rig.controller.swapContentSource(
                to: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(rig.clock), audio: false)
            newPlayer = prepared.player
            #expect(rig.player.rate == 0, "the previous player is paused")
            #expect(prepared.player.rate == 1, "the new player took over the previous one's rate")
        }
        await rig.clock.advance(by: .zero)

        // Same controller, window and playback-state object; the state now describes B from its start.
        #expect(rig.controller.isPictureInPictureActive)
        #expect(rig.system.window(for: rig.controller) === window)
        let swapped = try #require(window.playbackState.snapshot())
        #expect(swapped.stateID == initial.stateID)
        #expect(swapped.itemName == "b.mp4")
        #expect(swapped.contentDuration == Ticks.seconds(4))
        #expect(swapped.elapsed == .zero)
        #expect(swapped.timeControlStatus == .playing)

        await Ticks.play(rig.clock, for: 4.2)
        let frames = window.shownFrames
        let referenceA = try MediaFixtures.referenceMD5s("a.mp4")
        let referenceB = try MediaFixtures.referenceMD5s("b.mp4")
        try #require(swapIndex == 31, "a.mp4 shows frames 0...30 in its first second")
        #expect(frames[..<swapIndex].map(\.md5) == Array(referenceA[..<swapIndex]))
        #expect(frames[swapIndex...].map(\.md5) == referenceB, "after the swap: exactly B's frames, in order")
        #expect(frames[swapIndex].clockTime == swapTime, "B's first frame is shown at the swap")

        // Frame times are read at the advance that shows the frame; every frame falls on a step here.
        var longest = 0.0
        for i in swapIndex..<frames.count { longest = max(longest, frames[i].clockTime - frames[i - 1].clockTime) }
        #expect(longest <= 1.0 / 25 + 1e-9, "longest gap after the swap: \(longest) s")
        #expect(window.renderSize == RenderSize(width: 480, height: 270))

        let events = await rig.finish()
        newPlayer?.invalidate()
        #expect(events.session == [.willStart, .didStart, .willStop, .didStop], "no stop/start around the swap")
        #expect(
            events.filter { if case .contentSource = $0 { true } else { false } }
                == [.contentSource(item: "b.mp4", mode: mode)])
        let states = events.playbackStates
        #expect(Set(states.map(\.stateID)) == [initial.stateID])
        let afterSwap = try #require(states.first { $0.contentDuration == Ticks.seconds(4) })
        #expect(afterSwap.elapsed == .zero)
        let index = try #require(events.firstIndex(of: .contentSource(item: "b.mp4", mode: mode)))
        #expect(events[index + 1] == .playbackState(afterSwap), "the state follows the swap at once")
        #expect(rig.delegate.log == events.session)
    }

    @Test("a swap to a source that is not ready for display stops Picture in Picture")
    func notReadySourceStops() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        // A new player that has not loaded yet: its layer has shown nothing.
        let next = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(rig.clock), audio: false)
        let layer = PlayerLayer(player: next)
        rig.controller.contentSource = ContentSource(playerLayer: layer)
        await rig.controller.callbacksDelivered()
        #expect(!rig.controller.isPictureInPictureActive)
        #expect(!window.isOpen && rig.system.windows.isEmpty)
        #expect(rig.delegate.log == [.willStart, .didStart, .willStop, .didStop])

        let events = await rig.finish()
        next.invalidate()
        let swap = try #require(events.firstIndex(of: .contentSource(item: "b.mp4", mode: .source)))
        #expect(
            Array(events[swap...].prefix(4)) == [
                .contentSource(item: "b.mp4", mode: .source), .possible(false),
                .willStop, .didStop,
            ])
    }

    @Test("a ready source assigned while idle is simply used by the next session")
    func swapWhileIdle() async throws {
        let rig = await Rig.make("a.mp4")
        let prepared = try await ContentSource.prepared(
            for: PlayerItem(url: MediaFixtures.path("b.mp4")),
            clock: .manual(rig.clock), audio: false)
        rig.controller.contentSource = prepared.contentSource
        prepared.player.play()
        let window = try await rig.startPictureInPicture()
        #expect(window.contentSource === prepared.contentSource)
        #expect(window.playbackState.itemName == "b.mp4")
        let events = await rig.finish()
        prepared.player.invalidate()
        #expect(events.session == [.willStart, .didStart, .willStop, .didStop])
    }

    @Test("preparing an item that cannot load fails with the item's error")
    func preparationFailure() async throws {
        let clock = ManualClock()
        await #expect(throws: ContentSourcePreparationError.self) {
            _ = try await ContentSource.prepared(
                for: PlayerItem(url: MediaFixtures.path("missing.mp4")),
                clock: .manual(clock), audio: false)
        }
    }
}
