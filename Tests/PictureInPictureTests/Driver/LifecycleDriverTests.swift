import MediaIO
import PictureInPicture
import Playback
import Testing

/// The app's lifecycle, other apps, and the system, driven through the simulated system.
@Suite("Driver lifecycle")
struct LifecycleDriverTests {
    @Test("entering the background while playing starts automatically; the foreground restores")
    func automaticStart() async throws {
        let rig = await Rig.make("a.mp4")
        rig.controller.canStartPictureInPictureAutomaticallyFromInline = true
        rig.system.enterBackground()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == [.willStart, .didStart])
        let window = try #require(rig.system.window(for: rig.controller))
        await Ticks.play(rig.clock, for: 0.5)
        #expect(window.framesShown == 16, "the poster frame, then 15 frames in half a second")
        rig.system.enterForeground()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == [.willStart, .didStart, .restoreUserInterface, .willStop, .didStop])
        #expect(!window.isOpen)
        _ = await rig.finish()
    }

    @Test("no automatic start unless allowed and playing", arguments: [(false, true), (true, false)])
    func noAutomaticStart(allowed: Bool, playing: Bool) async throws {
        let rig = await Rig.make("a.mp4", playing: playing)
        rig.controller.canStartPictureInPictureAutomaticallyFromInline = allowed
        rig.system.enterBackground()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log.isEmpty && rig.system.windows.isEmpty)
        #expect(await rig.finish().isEmpty)
    }

    @Test("termination closes the window at once, without restore; later starts fail")
    func termination() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        rig.system.terminateApp()
        #expect(!window.isOpen && rig.system.windows.isEmpty, "gone before any callback")
        #expect(!rig.controller.isPictureInPictureActive)
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == [.willStart, .didStart, .willStop, .didStop])
        try rig.controller.startPictureInPicture()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log.suffix(2) == [.willStart, .failedToStart(.systemFailed("the app has terminated"))])
        _ = await rig.finish()
    }

    @Test("termination during a slow start cancels it")
    func terminationDuringStart() async throws {
        let rig = await Rig.make("a.mp4", startLatency: .seconds(1))
        try rig.controller.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        rig.system.terminateApp()
        await Ticks.play(rig.clock, for: 1)
        #expect(rig.delegate.log == [.willStart, .failedToStart(.startCancelled)])
        #expect(rig.system.windows.isEmpty)
        _ = await rig.finish()
    }

    @Test("the window opens after the start latency, in clock time")
    func startLatency() async throws {
        let rig = await Rig.make("a.mp4", startLatency: .milliseconds(500))
        try rig.controller.startPictureInPicture()
        await rig.clock.advance(by: Ticks.seconds(0.49))
        #expect(rig.controller.phase == .starting && rig.delegate.log == [.willStart])
        await rig.clock.advance(by: Ticks.seconds(0.01))
        #expect(rig.controller.isPictureInPictureActive && rig.delegate.log == [.willStart, .didStart])
        #expect(rig.system.now == 0.5)
        _ = await rig.finish()
    }

    @Test("another app's Picture in Picture suspends ours, and gives it back")
    func suspension() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        rig.system.otherAppStartedPictureInPicture()
        await rig.clock.advance(by: .zero)
        #expect(rig.controller.isPictureInPictureSuspended && rig.controller.isPictureInPictureActive)
        #expect(!window.isVisible && window.isOpen)
        let shown = window.framesShown
        await Ticks.play(rig.clock, for: 0.5)
        #expect(window.framesShown == shown, "a hidden window shows nothing")
        #expect(await window.skip(by: .seconds(1)) == .refused)
        rig.system.otherAppStoppedPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        #expect(!rig.controller.isPictureInPictureSuspended && window.isVisible)
        #expect(window.framesShown == shown + 15)
        let events = await rig.finish()
        #expect(events.session == [.willStart, .didStart, .suspended(true), .suspended(false), .willStop, .didStop])
    }

    @Test("a locked screen keeps content playing with a playback audio session")
    func lockWithPlaybackSession() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        rig.system.lockScreen()
        await Ticks.play(rig.clock, for: 0.5)
        #expect(rig.player.timeControlStatus == .playing)
        #expect(rig.player.currentTime() == Ticks.seconds(0.5))
        #expect(!window.isVisible && rig.controller.isPictureInPictureActive)
        rig.system.unlockScreen()
        #expect(window.isVisible && rig.system.app.lifecycle == .foreground)
        _ = await rig.finish()
    }

    @Test("a locked screen pauses content without a playback audio session")
    func lockWithoutPlaybackSession() async throws {
        let rig = await Rig.make(
            "a.mp4",
            app: SimulatedAppEnvironment(
                audioSession: AudioSession(
                    category: .ambient,
                    isActive: true)))
        await Ticks.play(rig.clock, for: 0.2)
        rig.system.lockScreen()
        await Ticks.play(rig.clock, for: 0.5)
        #expect(rig.player.timeControlStatus == .paused)
        #expect(rig.player.currentTime() == Ticks.seconds(0.2))
        _ = await rig.finish()
    }

    @Test("the system may stop Picture in Picture at any moment")
    func systemStop() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        rig.system.systemStop()
        await rig.clock.advance(by: .zero)
        #expect(!window.isOpen && rig.delegate.log == [.willStart, .didStart, .willStop, .didStop])
        _ = await rig.finish()
    }

    @Test("the user's close button stops without a restore")
    func closeButton() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        window.close()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == [.willStart, .didStart, .willStop, .didStop])
        _ = await rig.finish()
    }

    @Test("releasing an active controller ends the session and the stream")
    func releaseWhileActive() async throws {
        let rig = await Rig.make("a.mp4")
        var controller: PictureInPictureController? = PictureInPictureController(
            playerLayer: rig.layer,
            system: rig.system)
        let delegate = RecordingDelegate()
        controller?.delegate = delegate
        let log = EventLog(try #require(controller))
        try controller?.startPictureInPicture()
        await rig.clock.advance(by: .zero)
        #expect(rig.system.windows.count == 1)
        controller = nil
        await rig.clock.advance(by: .zero)
        #expect(rig.system.windows.isEmpty)
        #expect(await log.complete().session == [.willStart, .didStart, .willStop, .didStop])
        #expect(delegate.log == [.willStart, .didStart], "the delegate is not called for a controller that is gone")
        _ = await rig.finish()
    }

    @Test("invalidate() ends the session with the delegate still told")
    func invalidateWhileActive() async throws {
        let rig = await Rig.make("a.mp4")
        _ = try await rig.startPictureInPicture()
        let events = await rig.finish()
        #expect(rig.delegate.log == [.willStart, .didStart, .willStop, .didStop])
        #expect(events.session == rig.delegate.log)
        #expect(rig.system.windows.isEmpty)
    }
}
