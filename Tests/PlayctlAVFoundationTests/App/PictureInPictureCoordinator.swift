import AVFoundation
import AVKit

/// App code written for iOS: owns the Picture in Picture controller, restores the inline player when the user comes
/// back, and moves Picture in Picture to another player's layer.
@MainActor
final class PictureInPictureCoordinator: NSObject, AVPictureInPictureControllerDelegate {
    let controller: AVPictureInPictureController
    private(set) var log: [String] = []
    private(set) var isInlinePlayerVisible = true
    private var possibleObservation: NSKeyValueObservation?

    init?(playerLayer: AVPlayerLayer) {
        guard AVPictureInPictureController.isPictureInPictureSupported(),
            let controller = AVPictureInPictureController(playerLayer: playerLayer)
        else { return nil }
        self.controller = controller
        super.init()
        controller.delegate = self
        controller.canStartPictureInPictureAutomaticallyFromInline = true
        possibleObservation = controller.observe(\.isPictureInPicturePossible, options: [.initial, .new]) {
            [weak self] _, change in
            let possible = change.newValue ?? false
            Task { @MainActor in self?.log.append("possible \(possible)") }
        }
    }

    /// Configures the audio session as Picture in Picture needs, then starts it.
    func start() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback, mode: .moviePlayback, options: [])
        try session.setActive(true)
        controller.startPictureInPicture()
    }

    /// Shows another player's layer (already showing its first frame) in the running Picture in Picture window.
    func show(_ playerLayer: AVPlayerLayer) {
        controller.contentSource = AVPictureInPictureController.ContentSource(playerLayer: playerLayer)
    }

    nonisolated func pictureInPictureControllerWillStartPictureInPicture(_ controller: AVPictureInPictureController) {
        MainActor.assumeIsolated { log.append("willStart") }
    }

    nonisolated func pictureInPictureControllerDidStartPictureInPicture(_ controller: AVPictureInPictureController) {
        MainActor.assumeIsolated {
            isInlinePlayerVisible = false
            log.append("didStart")
        }
    }

    nonisolated func pictureInPictureController(
        _ controller: AVPictureInPictureController, failedToStartPictureInPictureWithError error: Error
    ) {
        let message = (error as NSError).localizedDescription
        MainActor.assumeIsolated { log.append("failedToStart: \(message)") }
    }

    nonisolated func pictureInPictureController(
        _ controller: AVPictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void
    ) {
        MainActor.assumeIsolated {
            isInlinePlayerVisible = true
            log.append("restoreUserInterface")
        }
        completionHandler(true)
    }

    nonisolated func pictureInPictureControllerWillStopPictureInPicture(_ controller: AVPictureInPictureController) {
        MainActor.assumeIsolated { log.append("willStop") }
    }

    nonisolated func pictureInPictureControllerDidStopPictureInPicture(_ controller: AVPictureInPictureController) {
        MainActor.assumeIsolated { log.append("didStop") }
    }
}
