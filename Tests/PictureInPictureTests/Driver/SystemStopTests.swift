import Locking
import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// A sample-buffer app that always says its content plays, whatever its layer gets: the case of an app that
/// stopped enqueueing frames (its decoder hung, its source ran dry) without telling the system.
final class AlwaysPlayingDelegate: SampleBufferPlaybackDelegate {
    private let paused = Locked(false)

    func pictureInPictureController(_ controller: PictureInPictureController, setPlaying playing: Bool) {
        paused.withLock { $0 = !playing }
    }

    func pictureInPictureControllerTimeRangeForPlayback(_ controller: PictureInPictureController) -> TimeRange {
        TimeRange(start: .zero, duration: Ticks.seconds(60))
    }

    func pictureInPictureControllerIsPlaybackPaused(_ controller: PictureInPictureController) -> Bool {
        paused.withLock { $0 }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, didTransitionToRenderSize newRenderSize: RenderSize
    ) {}

    func pictureInPictureController(
        _ controller: PictureInPictureController, skipByInterval interval: MediaTime,
        completion completionHandler: @escaping @Sendable () -> Void
    ) { completionHandler() }
}

/// The system ends a session on its own when its item fails, or when it plays without a new picture for the
/// system's picture timeout, saying why (`stoppedBySystem`) before `willStop` and `didStop`.
@Suite("System stops")
struct SystemStopTests {
    @Test("systemStop() says the system asked")
    func requested() async throws {
        let rig = await Rig.make("a.mp4")
        _ = try await rig.startPictureInPicture()
        rig.system.systemStop()
        await rig.clock.advance(by: .zero)
        let events = await rig.finish()
        #expect(events.session == [.willStart, .didStart, .stoppedBySystem(.requested), .willStop, .didStop])
        #expect(rig.delegate.log == [.willStart, .didStart, .willStop, .didStop], "not a delegate call")
    }

    @Test("an item that fails in the window ends the session")
    func itemFailed() async throws {
        let rig = await Rig.make("a.mp4")
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        #expect(window.isOpen)
        rig.player.replaceCurrentItem(with: PlayerItem(url: "/nonexistent/playctl-missing.mp4"))
        await Ticks.play(rig.clock, for: 0.1)
        #expect(rig.player.currentItem?.status == .failed)
        #expect(!window.isOpen)
        let events = await rig.finish()
        #expect(events.session == [.willStart, .didStart, .stoppedBySystem(.itemFailed), .willStop, .didStop])
    }

    /// A sample-buffer session whose layer shows b.mp4 (4 s) while the delegate says it plays for a minute.
    struct Stalled {
        let clock: ManualClock
        let controller: PictureInPictureController
        let window: PictureInPictureWindow
        let log: EventLog
        let player: Player
        /// Held here: a content source holds its delegate weakly, as AVKit's does.
        let delegate: AlwaysPlayingDelegate

        init(pictureTimeout: Duration?) async throws {
            clock = ManualClock()
            let system = SimulatedPictureInPictureSystem(clock: .manual(clock))
            system.pictureTimeout = pictureTimeout
            let layer = SampleBufferDisplayLayer()
            player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
            player.add(layer.makeVideoSink())
            player.play()
            await clock.advance(by: .zero)
            delegate = AlwaysPlayingDelegate()
            controller = PictureInPictureController(
                contentSource: ContentSource(sampleBufferDisplayLayer: layer, playbackDelegate: delegate),
                system: system)
            log = EventLog(controller)
            try controller.startPictureInPicture()
            await clock.advance(by: .zero)
            window = try #require(system.window(for: controller))
        }

        /// Ends the session; its events.
        func finish() async -> [PictureInPictureControllerEvent] {
            controller.invalidate()
            await clock.advance(by: .zero)
            defer { player.invalidate() }
            return await log.complete()
        }
    }

    /// Advances in steps of 0.1 s (no frame is due: the content's pictures ended).
    static func wait(_ clock: ManualClock, _ seconds: Double) async {
        for _ in 0..<Int((seconds * 10).rounded()) { await clock.advance(by: Ticks.seconds(0.1)) }
    }

    @Test("content that plays without a new picture for the timeout is stopped, not before")
    func noNewPicture() async throws {
        let s = try await Stalled(pictureTimeout: .seconds(10))
        await Ticks.play(s.clock, for: 4)
        let shown = s.window.framesShown
        #expect(shown == 100, "b.mp4's 4 s at 25 fps")
        await Self.wait(s.clock, 9.8)
        #expect(s.window.isOpen, "the last picture came at 3.96 s: 9.84 s ago")
        await Self.wait(s.clock, 0.2)
        #expect(!s.window.isOpen)
        #expect(s.window.framesShown == shown)
        let events = await s.finish()
        #expect(events.session == [.willStart, .didStart, .stoppedBySystem(.noNewPicture), .willStop, .didStop])
    }

    @Test("no timeout: the stale picture stays; paused time does not count")
    func timeoutOffOrPaused() async throws {
        let off = try await Stalled(pictureTimeout: nil)
        await Self.wait(off.clock, 30)
        #expect(off.window.isOpen)
        #expect(await off.finish().session == [.willStart, .didStart, .willStop, .didStop])

        let s = try await Stalled(pictureTimeout: .seconds(10))
        await Ticks.play(s.clock, for: 4)
        s.window.pause()
        await Self.wait(s.clock, 20)
        #expect(s.window.isOpen, "paused: no picture is due")
        s.window.play()
        await Self.wait(s.clock, 9.8)
        #expect(s.window.isOpen, "the count starts again when it plays")
        await Self.wait(s.clock, 0.3)
        #expect(!s.window.isOpen)
        #expect(
            await s.finish().session == [.willStart, .didStart, .stoppedBySystem(.noNewPicture), .willStop, .didStop])
    }
}
