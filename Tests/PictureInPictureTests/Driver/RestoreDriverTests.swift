import MediaIO
import PictureInPicture
import Playback
import Testing

/// "Return to app" from the window, per host profile, and what happens when the app completes with `false`,
/// late, or never.
@Suite("Driver restore")
struct RestoreDriverTests {
    static func order(_ profile: HostProfile) -> [PictureInPictureControllerEvent] {
        profile == .iOS
            ? [.willStart, .didStart, .restoreUserInterface, .willStop, .didStop]
            : [.willStart, .didStart, .willStop, .restoreUserInterface, .didStop]
    }

    @Test("restore follows the profile's order", arguments: HostProfile.allCases)
    func restoreOrder(profile: HostProfile) async throws {
        let rig = await Rig.make("a.mp4", profile: profile)
        let window = try await rig.startPictureInPicture()
        window.restore()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == Self.order(profile))
        #expect(!window.isOpen && rig.controller.lastRestoreFailure == nil)
        let events = await rig.finish()
        #expect(events.session == Self.order(profile), "the stream mirrors the delegate")
    }

    @Test("a restore completed with false still stops", arguments: HostProfile.allCases)
    func declined(profile: HostProfile) async throws {
        let rig = await Rig.make("a.mp4", profile: profile)
        rig.delegate.restorePolicy = .complete(false)
        let window = try await rig.startPictureInPicture()
        window.restore()
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == Self.order(profile))
        #expect(rig.controller.lastRestoreFailure == .declinedByApp)
        _ = await rig.finish()
    }

    @Test("a restore never completed stops after the timeout, in clock time", arguments: HostProfile.allCases)
    func neverCompleted(profile: HostProfile) async throws {
        let rig = await Rig.make("a.mp4", profile: profile, restoreTimeout: .seconds(2))
        rig.delegate.restorePolicy = .never
        let window = try await rig.startPictureInPicture()
        window.restore()
        await rig.clock.advance(by: Ticks.seconds(1.99))
        #expect(rig.controller.phase == .restoring && window.isOpen)
        #expect(rig.delegate.log == Array(Self.order(profile).dropLast(profile == .iOS ? 2 : 1)))
        await rig.clock.advance(by: Ticks.seconds(0.01))
        #expect(rig.delegate.log == Self.order(profile))
        #expect(!window.isOpen && rig.controller.lastRestoreFailure == .timedOut)
        rig.delegate.completeKeptRestores(true)
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == Self.order(profile), "a late completion is ignored")
        _ = await rig.finish()
    }

    @Test("a completion that arrives later but in time finishes the restore")
    func completedLater() async throws {
        let rig = await Rig.make("a.mp4", restoreTimeout: .seconds(2))
        rig.delegate.restorePolicy = .never
        let window = try await rig.startPictureInPicture()
        window.restore()
        await rig.clock.advance(by: Ticks.seconds(1))
        #expect(window.isOpen)
        rig.delegate.completeKeptRestores(true)
        await rig.clock.advance(by: .zero)
        #expect(rig.delegate.log == Self.order(.iOS) && !window.isOpen)
        await rig.clock.advance(by: Ticks.seconds(2))
        #expect(rig.controller.lastRestoreFailure == nil, "the timer that fires afterwards is ignored")
        _ = await rig.finish()
    }

    @Test("a controller without a delegate restores at once")
    func noDelegate() async throws {
        let rig = await Rig.make("a.mp4")
        rig.controller.delegate = nil
        let window = try await rig.startPictureInPicture()
        window.restore()
        await rig.clock.advance(by: .zero)
        #expect(!window.isOpen && rig.controller.lastRestoreFailure == nil)
        #expect(await rig.finish().session == Self.order(.iOS))
    }
}
