import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// A smoke test of the real-time paths (timers on the host clock, playback state from the player's events).
/// Its outcome does not depend on timing: every wait is for a condition, bounded by a generous deadline.
@Suite("Host clock")
struct HostClockTests {
    @Test("start after a latency, swap by source, restore, on real time")
    func realTime() async throws {
        let system = SimulatedPictureInPictureSystem(profile: .macOS, startLatency: .milliseconds(50))
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let controller = PictureInPictureController(playerLayer: layer, system: system)
        let delegate = RecordingDelegate()
        controller.delegate = delegate
        let log = EventLog(controller)
        try await waitUntil("Picture in Picture to be possible") { controller.isPictureInPicturePossible }

        try controller.startPictureInPicture()
        try await waitUntil("Picture in Picture to be active") { controller.isPictureInPictureActive }
        // Play only now: on a loaded machine the 6 s clip could otherwise end before the window opens.
        player.play()
        let window = try #require(system.window(for: controller))
        try await waitUntil("5 frames in the window") { window.framesShown >= 5 }
        let stateID = window.playbackState.stateID

        let prepared = try await controller.swapContentSource(
            to: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host,
            audio: false)
        defer { prepared.player.invalidate() }
        try await waitUntil("b.mp4's 480x270 in the window") {
            window.renderSize == RenderSize(width: 480, height: 270)
        }
        #expect(window.playbackState.stateID == stateID && window.playbackState.itemName == "b.mp4")
        #expect(window.playbackState.contentDuration == MediaTime(value: 4, timescale: 1))

        window.restore()
        try await waitUntil("Picture in Picture to stop after the restore") { !controller.isPictureInPictureActive }
        await controller.callbacksDelivered()
        #expect(delegate.log == [.willStart, .didStart, .willStop, .restoreUserInterface, .didStop])
        controller.invalidate()
        let events = await log.complete()
        #expect(events.contains(.contentSource(item: "b.mp4", mode: .source)))
        #expect(Set(events.playbackStates.map(\.stateID)) == [stateID])
    }
}
