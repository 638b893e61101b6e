import Foundation
import Locking
import MediaIO
import PictureInPicture
import Playback
import PlaybackTesting
import Testing

/// A delegate that calls back into its controller and the player from every callback, as apps do (pause the
/// inline UI's player, read the state, seek, swap the item), and Picture in Picture and playback go on.
@Suite("Delegates that call back into the controller and the player", .timeLimit(.minutes(1)))
struct DelegateReentrancyTests {
    final class CallingDelegate: PictureInPictureControllerDelegate {
        let player: Player
        let calls = Locked<[String]>([])

        init(player: Player) { self.player = player }

        private func note(_ call: String, _ controller: PictureInPictureController) {
            let active = controller.isPictureInPictureActive
            calls.withLock { $0.append("\(call) active=\(active) rate=\(player.rate)") }
        }

        func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {
            note("willStart", controller)
            _ = player.currentTime()
        }
        func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {
            note("didStart", controller)
            player.pause()
            player.play()
        }
        func pictureInPictureController(
            _ controller: PictureInPictureController,
            failedToStartPictureInPictureWithError error: PictureInPictureError
        ) {
            note("failedToStart", controller)
        }
        func pictureInPictureController(
            _ controller: PictureInPictureController,
            restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
                @escaping @Sendable (Bool) -> Void
        ) {
            note("restore", controller)
            player.seek(to: MediaTime(seconds: 0.5), toleranceBefore: .zero, toleranceAfter: .zero) { _ in
                completionHandler(true)
            }
        }
        func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {
            note("willStop", controller)
        }
        func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {
            note("didStop", controller)
            player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("b.mp4")))
        }
    }

    @Test("every delegate method calls the player and the controller; the session runs and playback goes on")
    func delegateCallsBack() async throws {
        let rig = await Rig.make("a.mp4")
        let delegate = CallingDelegate(player: rig.player)
        rig.controller.delegate = delegate
        let window = try await rig.startPictureInPicture()
        await Ticks.play(rig.clock, for: 0.5)
        #expect(rig.controller.isPictureInPictureActive)
        #expect(rig.player.timeControlStatus == .playing)
        // The user taps the window's restore button: the delegate seeks, and completes the restore from the
        // seek's completion handler.
        window.restore()
        for _ in 0..<10 { await rig.clock.advance(by: Ticks.fine) }
        await Ticks.play(rig.clock, for: 0.5)
        #expect(!rig.controller.isPictureInPictureActive)
        let calls = delegate.calls.withLock { $0 }
        #expect(
            calls.map { $0.split(separator: " ")[0] } == ["willStart", "didStart", "restore", "willStop", "didStop"],
            "\(calls)")
        #expect(rig.player.currentItem?.name == "b.mp4", "the item the delegate put in plays")
        #expect(rig.player.timeControlStatus == .playing)
        #expect(rig.layer.isReadyForDisplay)
        _ = await rig.finish()
    }
}
