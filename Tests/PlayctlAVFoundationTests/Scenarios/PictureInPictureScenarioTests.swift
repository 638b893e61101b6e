import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("App code: a Picture in Picture coordinator")
struct PictureInPictureScenarioTests {
    @Test("fails without the audio session, starts with it, moves to another player's layer, restores the UI")
    @MainActor
    func coordinator() async throws {
        let trace = try await deterministicTrace { @MainActor driver, recorder in
            let player = AVPlayer(url: Clips.url("a.mp4"))
            recorder.record(player, as: "inline")
            let layer = AVPlayerLayer(player: player)
            player.play()
            await driver.advance(by: 0.1)
            #expect(layer.isReadyForDisplay)

            let coordinator = try #require(PictureInPictureCoordinator(playerLayer: layer))
            recorder.record(coordinator.controller, as: "pip")
            coordinator.controller.startPictureInPicture()
            await driver.advance(by: 0)
            #expect(!coordinator.controller.isPictureInPictureActive, "an iOS app starts with a soloAmbient session")

            try coordinator.start()
            await driver.advance(by: 0.5)
            #expect(coordinator.controller.isPictureInPictureActive)
            #expect(!coordinator.isInlinePlayerVisible)

            let next = AVPlayer(url: Clips.url("b.mp4"))
            recorder.record(next, as: "next")
            let nextLayer = AVPlayerLayer(player: next)
            await driver.advance(by: 0)
            #expect(nextLayer.isReadyForDisplay, "a paused player shows its first frame")
            coordinator.show(nextLayer)
            next.play()
            player.pause()
            await driver.advance(by: 1)
            #expect(coordinator.controller.isPictureInPictureActive, "a source ready for display keeps the session")
            #expect(coordinator.controller.playerLayer === nextLayer)

            let window = try #require(
                driver.pictureInPictureSystem.window(for: coordinator.controller.playctlController))
            window.restore()
            await driver.advance(by: 0.1)
            #expect(coordinator.isInlinePlayerVisible)
            #expect(!coordinator.controller.isPictureInPictureActive)
            for line in coordinator.log { recorder.note(line, source: "delegate") }
        }
        expectTrace(trace, matchesGolden: "picture-in-picture")
    }
}
