import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// Each unmet precondition, set on the simulated system or app, makes `startPictureInPicture()` fail with the
/// error naming it, without `willStart` and without a window.
@Suite("Driver preconditions")
struct PreconditionDriverTests {
    enum Breakage: String, CaseIterable, Sendable {
        case unsupportedHost, ambientAudio, inactiveAudio, noBackgroundAudio, contentNotReady

        var expected: PictureInPictureError {
            switch self {
            case .unsupportedHost: return .notSupported
            case .ambientAudio: return .audioSessionCategoryNotPlayback(current: .ambient)
            case .inactiveAudio: return .audioSessionInactive
            case .noBackgroundAudio: return .backgroundAudioCapabilityMissing
            case .contentNotReady: return .contentSourceNotReadyForDisplay
            }
        }
    }

    @Test("an unmet precondition fails the start with its own error", arguments: Breakage.allCases)
    func failedToStart(breakage: Breakage) async throws {
        let rig = await Rig.make("b.mp4")
        var controller = rig.controller
        var log = rig.log
        var expected: [PictureInPictureControllerEvent] = [.possible(false), .failedToStart(breakage.expected)]
        var spare: Player?
        switch breakage {
        case .unsupportedHost: rig.system.isPictureInPictureSupported = false
        case .ambientAudio: rig.system.app.audioSession = AudioSession(category: .ambient, isActive: true)
        case .inactiveAudio: rig.system.app.audioSession = AudioSession(category: .playback, isActive: false)
        case .noBackgroundAudio: rig.system.app.hasBackgroundAudioCapability = false
        case .contentNotReady:
            // A layer whose player has not loaded anything yet (no clock advance): nothing to show.
            let player = Player(
                item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(rig.clock), audio: false)
            spare = player
            controller = PictureInPictureController(playerLayer: PlayerLayer(player: player), system: rig.system)
            controller.delegate = rig.delegate
            log = EventLog(controller)
            expected = [.failedToStart(breakage.expected)]
        }
        #expect(!controller.isPictureInPicturePossible)
        try controller.startPictureInPicture()
        await controller.callbacksDelivered()
        #expect(rig.delegate.log == [.failedToStart(breakage.expected)], "no willStart: no session was made")
        #expect(!controller.isPictureInPictureActive && controller.phase == .idle)
        #expect(rig.system.windows.isEmpty)

        controller.invalidate()
        if controller !== rig.controller { rig.controller.invalidate() }
        await rig.clock.advance(by: .zero)
        #expect(await log.complete() == expected)
        spare?.invalidate()
        rig.player.invalidate()
    }

    @Test("possible follows the app's audio session, capability and the host, as events")
    func possibleFollowsEnvironment() async throws {
        let rig = await Rig.make("b.mp4")
        #expect(rig.controller.isPictureInPicturePossible)
        rig.system.app.audioSession = AudioSession(category: .playback, isActive: false)
        rig.system.app.audioSession = AudioSession(category: .ambient, isActive: false)
        rig.system.app.audioSession = .activePlayback
        rig.system.app.hasBackgroundAudioCapability = false
        rig.system.app.hasBackgroundAudioCapability = true
        rig.system.isPictureInPictureSupported = false
        #expect(!rig.controller.isPictureInPicturePossible)
        let events = await rig.finish()
        #expect(events == [.possible(false), .possible(true), .possible(false), .possible(true), .possible(false)])
    }

    @Test("a content source becomes possible when its layer shows its first frame")
    func possibleWhenFirstFrameShown() async throws {
        let rig = await Rig.make("b.mp4")
        let late = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(rig.clock), audio: false)
        let controller = PictureInPictureController(playerLayer: PlayerLayer(player: late), system: rig.system)
        let log = EventLog(controller)
        #expect(!controller.isPictureInPicturePossible)
        await rig.clock.advance(by: .zero)
        #expect(controller.isPictureInPicturePossible)
        controller.invalidate()
        await rig.clock.advance(by: .zero)
        #expect(await log.complete() == [.possible(true)])
        late.invalidate()
        _ = await rig.finish()
    }

    @Test("misuse throws and leaves the session alone")
    func misuse() async throws {
        let rig = await Rig.make("b.mp4", startLatency: .milliseconds(100))
        try rig.controller.startPictureInPicture()
        #expect(throws: PictureInPictureError.startInProgress) { try rig.controller.startPictureInPicture() }
        await rig.clock.advance(by: Ticks.seconds(0.1))
        #expect(throws: PictureInPictureError.alreadyActive) { try rig.controller.startPictureInPicture() }
        rig.controller.invalidate()
        #expect(throws: PictureInPictureError.controllerReleased) { try rig.controller.startPictureInPicture() }
        let events = await rig.finish()
        #expect(events.session == [.willStart, .didStart, .willStop, .didStop])
    }

    @Test("the host may refuse to open the window")
    func hostRefuses() async throws {
        let rig = await Rig.make("b.mp4")
        rig.system.openFailure = "no window server"
        try rig.controller.startPictureInPicture()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == [.willStart, .failedToStart(.systemFailed("no window server"))])
        _ = await rig.finish()
    }
}
