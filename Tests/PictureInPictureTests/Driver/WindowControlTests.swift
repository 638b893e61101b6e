import MediaIO
import PictureInPicture
import Playback
import Testing

/// The window's play/pause and resize on a player-layer source.
@Suite("Window controls")
struct WindowControlTests {
    @Test("play/pause in the window drives the player, and the playback state follows")
    func playPause() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        window.pause()
        #expect(rig.player.timeControlStatus == .paused && window.playbackState.isPaused)
        await Ticks.play(rig.clock, for: 0.5)
        #expect(rig.player.currentTime() == Ticks.seconds(0.5))
        window.togglePlayPause()
        #expect(rig.player.timeControlStatus == .playing)
        await Ticks.play(rig.clock, for: 0.5)
        #expect(rig.player.currentTime() == Ticks.seconds(1))
        let states = await rig.finish().playbackStates
        #expect(states.map(\.timeControlStatus) == [.playing, .paused, .playing])
        #expect(states.map(\.elapsed) == [.zero, Ticks.seconds(0.5), Ticks.seconds(0.5)])
    }

    @Test("the window takes the content's size until the user resizes it")
    func resize() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        #expect(window.renderSize == RenderSize(width: 640, height: 360))
        window.resize(to: RenderSize(width: 320, height: 180))
        await Ticks.play(rig.clock, for: 0.2)
        #expect(window.renderSize == RenderSize(width: 320, height: 180))
        _ = await rig.finish()
    }

    @Test("pause and restore are ignored while the window is hidden")
    func hiddenWindowTakesNoInput() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        rig.system.otherAppStartedPictureInPicture()
        window.pause()
        window.restore()
        await rig.clock.advance(by: .zero)
        #expect(rig.player.timeControlStatus == .playing && rig.controller.phase == .active)
        _ = await rig.finish()
    }
}
