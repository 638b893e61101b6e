import Locking
import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// An app that renders frames itself: a player feeding a sample-buffer display layer, controlled by the window
/// through the playback delegate.
final class SampleBufferApp: SampleBufferPlaybackDelegate {
    let player: Player
    let layer = SampleBufferDisplayLayer()
    private struct Calls {
        var setPlaying: [Bool] = []
        var renderSizes: [RenderSize] = []
        var skips: [MediaTime] = []
        var queries = 0
    }
    private let calls = Locked(Calls())
    /// How many times the app calls each skip's completion.
    let completionsPerSkip: Int

    init(clip: String, clock: ManualClock, completionsPerSkip: Int = 1) {
        player = Player(item: PlayerItem(url: MediaFixtures.path(clip)), clock: .manual(clock), audio: false)
        player.add(layer.makeVideoSink())
        self.completionsPerSkip = completionsPerSkip
    }

    var setPlayingCalls: [Bool] { calls.withLock { $0.setPlaying } }
    var renderSizes: [RenderSize] { calls.withLock { $0.renderSizes } }
    var skips: [MediaTime] { calls.withLock { $0.skips } }
    var queries: Int { calls.withLock { $0.queries } }

    func pictureInPictureController(_ controller: PictureInPictureController, setPlaying playing: Bool) {
        calls.withLock { $0.setPlaying.append(playing) }
        if playing { player.play() } else { player.pause() }
    }

    func pictureInPictureControllerTimeRangeForPlayback(_ controller: PictureInPictureController) -> TimeRange {
        calls.withLock { $0.queries += 1 }
        return TimeRange(start: .zero, duration: player.currentItem?.duration ?? .indefinite)
    }

    func pictureInPictureControllerIsPlaybackPaused(_ controller: PictureInPictureController) -> Bool {
        player.rate == 0
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController,
        didTransitionToRenderSize newRenderSize: RenderSize
    ) {
        calls.withLock { $0.renderSizes.append(newRenderSize) }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, skipByInterval interval: MediaTime,
        completion completionHandler: @escaping @Sendable () -> Void
    ) {
        calls.withLock { $0.skips.append(interval) }
        let target = player.currentTime() + interval
        Task { [player, completionsPerSkip] in
            _ = await player.seek(to: target, exact: true, origin: .pictureInPictureSkip)
            for _ in 0..<completionsPerSkip { completionHandler() }
        }
    }
}

@Suite("Sample-buffer content sources")
struct SampleBufferSourceTests {
    struct Setup {
        let clock: ManualClock
        let system: SimulatedPictureInPictureSystem
        let app: SampleBufferApp
        let controller: PictureInPictureController
        let log: EventLog
    }

    static func setUp(completionsPerSkip: Int = 1) async -> Setup {
        let clock = ManualClock()
        let system = SimulatedPictureInPictureSystem(clock: .manual(clock))
        let app = SampleBufferApp(clip: "b.mp4", clock: clock, completionsPerSkip: completionsPerSkip)
        app.player.play()
        await clock.advance(by: .zero)
        let source = ContentSource(sampleBufferDisplayLayer: app.layer, playbackDelegate: app)
        let controller = PictureInPictureController(contentSource: source, system: system)
        let log = EventLog(controller)
        await clock.advance(by: .zero)
        return Setup(clock: clock, system: system, app: app, controller: controller, log: log)
    }

    @Test("the window shows the layer's frames and controls playback through the delegate")
    func controls() async throws {
        let s = await Self.setUp()
        #expect(s.controller.isPictureInPicturePossible && s.controller.playerLayer == nil)
        try s.controller.startPictureInPicture()
        await s.clock.advance(by: .zero)
        let window = try #require(s.system.window(for: s.controller))
        await Ticks.play(s.clock, for: 1)
        #expect(window.framesShown == 26 && s.app.layer.framesDisplayed == 26)
        #expect(window.renderSize == RenderSize(width: 480, height: 270))
        #expect(window.playbackState.contentDuration == Ticks.seconds(4))
        #expect(window.playbackState.elapsed == Ticks.seconds(1))
        #expect(window.playbackState.timeControlStatus == .playing)

        window.togglePlayPause()
        await s.clock.advance(by: .zero)
        #expect(s.app.setPlayingCalls == [false] && s.app.player.timeControlStatus == .paused)
        #expect(window.playbackState.isPaused)
        window.resize(to: RenderSize(width: 320, height: 180))
        await s.clock.advance(by: .zero)
        #expect(s.app.renderSizes == [RenderSize(width: 320, height: 180)])
        #expect(window.renderSize == RenderSize(width: 320, height: 180))

        s.controller.invalidate()
        await s.clock.advance(by: .zero)
        let events = await s.log.complete()
        #expect(events.session == [.willStart, .didStart, .willStop, .didStop])
        let states = events.playbackStates
        #expect(states.first?.timeControlStatus == .playing && states.last?.timeControlStatus == .paused)
        #expect(Set(states.map(\.stateID)).count == 1)
        s.app.player.invalidate()
    }

    @Test("a skip completes once even if the app calls its completion twice")
    func skipCompletesOnce() async throws {
        let s = await Self.setUp(completionsPerSkip: 2)
        try s.controller.startPictureInPicture()
        await s.clock.advance(by: .zero)
        let window = try #require(s.system.window(for: s.controller))
        await Ticks.play(s.clock, for: 1)
        #expect(await window.skip(by: .seconds(2)) == .completed(SkipRequestID(rawValue: 1), finished: true))
        #expect(await window.skip(by: .milliseconds(-500)) == .completed(SkipRequestID(rawValue: 2), finished: true))
        await s.clock.advance(by: .zero)
        #expect(s.app.skips == [Ticks.seconds(2), Ticks.seconds(-0.5)])
        #expect(s.app.player.currentTime() == Ticks.seconds(2.5))
        s.controller.requiresLinearPlayback = true
        #expect(await window.skip(by: .seconds(1)) == .refused)
        #expect(s.app.skips.count == 2)
        s.controller.invalidate()
        await s.clock.advance(by: .zero)
        _ = await s.log.complete()
        s.app.player.invalidate()
    }

    @Test("invalidatePlaybackState asks the delegate again")
    func invalidation() async throws {
        let s = await Self.setUp()
        try s.controller.startPictureInPicture()
        await s.clock.advance(by: .zero)
        let window = try #require(s.system.window(for: s.controller))
        let queries = s.app.queries
        s.app.player.pause()
        await s.clock.advance(by: .zero)
        #expect(!window.playbackState.isPaused, "the system only knows what the delegate last said")
        s.controller.invalidatePlaybackState()
        await s.clock.advance(by: .zero)
        #expect(window.playbackState.isPaused && s.app.queries == queries + 1)
        s.controller.invalidate()
        await s.clock.advance(by: .zero)
        _ = await s.log.complete()
        s.app.player.invalidate()
    }
}
