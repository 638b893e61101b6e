import Locking
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("AVPictureInPictureController semantics")
struct PictureInPictureSemanticsTests {
    @Test("isPictureInPicturePossible follows the audio session and the layer; a source not ready stops the session")
    @MainActor
    func possible() async throws {
        let driver = ClockDriver()
        try await driver.run { @MainActor in
            let player = AVPlayer(url: Clips.url("a.mp4"))
            let layer = AVPlayerLayer(player: player)
            let controller = try #require(AVPictureInPictureController(playerLayer: layer))
            let possible = Locked([Bool]())
            let observation = controller.observe(\.isPictureInPicturePossible, options: [.initial, .new]) { _, change in
                possible.withLock { $0.append(change.newValue!) }
            }
            await driver.advance(by: 0.1)
            #expect(possible.withLock { $0 } == [false])
            try AVAudioSession.sharedInstance().setCategory(.playback)
            try AVAudioSession.sharedInstance().setActive(true)
            await driver.advance(by: 0)
            #expect(possible.withLock { $0 } == [false, true])

            controller.startPictureInPicture()
            await driver.advance(by: 0.1)
            #expect(controller.isPictureInPictureActive)
            let unready = AVPlayerLayer(player: AVPlayer())
            controller.contentSource = .init(playerLayer: unready)
            await driver.advance(by: 0.1)
            #expect(!controller.isPictureInPictureActive, "AVKit: a new source must be ready for display")
            observation.invalidate()
        }
    }

    @Test("no initializer without Picture in Picture support")
    func unsupported() async throws {
        let driver = ClockDriver()
        driver.pictureInPictureSystem.isPictureInPictureSupported = false
        await driver.run {
            #expect(!AVPictureInPictureController.isPictureInPictureSupported())
            #expect(AVPictureInPictureController(playerLayer: AVPlayerLayer()) == nil)
        }
    }
}
