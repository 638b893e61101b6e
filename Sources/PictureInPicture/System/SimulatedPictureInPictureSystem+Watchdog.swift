import Playback

/// Why the system ended a Picture in Picture session on its own
/// (``PictureInPictureControllerEvent/stoppedBySystem(_:)``).
public enum SystemStopReason: String, CaseIterable, Sendable, Hashable {
    /// ``SimulatedPictureInPictureSystem/systemStop()``: the system reclaimed Picture in Picture (for example, to
    /// free resources).
    case requested
    /// The window's item failed: its status is `.failed`, or it failed to play to its end.
    case itemFailed
    /// The content played for ``SimulatedPictureInPictureSystem/pictureTimeout`` without a new picture.
    case noNewPicture
}

/// The system's watch over what each window shows: as the real system does, it ends a session whose item failed,
/// or whose content claims to play while no new picture has come for ``pictureTimeout``.
extension SimulatedPictureInPictureSystem {
    /// Stops `window`'s session when its item failed or its picture is stale (once per session): the controller
    /// reports ``PictureInPictureControllerEvent/stoppedBySystem(_:)``, then `willStop` and `didStop`.
    func watch(_ window: PictureInPictureWindow) {
        guard window.isOpen else { return }
        let source = window.contentSource
        let reason: SystemStopReason?
        if let item = source.player?.currentItem, item.status == .failed || item.error != nil {
            reason = .itemFailed
        } else if let timeout = pictureTimeout {
            let playing = window.playbackState.snapshot()?.timeControlStatus == .playing
            let quiet = window.secondsWithoutPicture(now: now, playing: playing)
            reason = quiet >= MediaTime(timeout).seconds ? .noNewPicture : nil
        } else {
            reason = nil
        }
        guard let reason else { return }
        stop(window.connection, window: window, reason: reason)
    }

    /// Ends `connection`'s session on the system's own decision, saying why first.
    func stop(_ connection: PictureInPictureHostConnection, window: PictureInPictureWindow?, reason: SystemStopReason) {
        if let window, !window.markStoppedBySystem() { return }
        connection.publish(.stoppedBySystem(reason))
        connection.stopRequested(by: .system)
    }
}
