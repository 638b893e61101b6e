/// The restore flow: the user asks to go back to the app, the app restores
/// its player UI and completes, and the session stops. See ``HostProfile`` for
/// the two delegate orders and for what `false` and a timeout mean.
extension PictureInPictureStateMachine {
    /// The user tapped the window's "return to app" button.
    ///
    /// While active and not suspended, enters restoring:
    /// - ``HostProfile/iOS``: `[restoreUserInterface, awaitRestoreCompletion(session, timeout:)]`
    /// - ``HostProfile/macOS``: `[willStop, restoreUserInterface, awaitRestoreCompletion(session, timeout:)]`
    ///
    /// In every other state, including suspended (the window is hidden, so
    /// the tap is stale), no actions.
    public mutating func restoreTapped() -> [PictureInPictureAction] {
        guard case .active(let s, _, suspended: false) = state else { return [] }
        return beginRestore(s)
    }

    /// The app called the `restoreUserInterface` completion for `session`.
    ///
    /// While restoring that session the stop proceeds with
    /// `closeWindow(session, .restore)`, preceded by `willStop` on iOS (macOS
    /// already sent it). With `restored == false` the stop still happens, as
    /// in AVKit, and `restoreFailed(session, .declinedByApp)` comes first.
    /// Enters stopping; `didStop` follows the host's close.
    ///
    /// In any other state, or for another session, no actions: a completion
    /// after a timeout, an interruption, or a second call is ignored.
    public mutating func restoreCompleted(_ restored: Bool, session: SessionID) -> [PictureInPictureAction] {
        guard case .restoring(let s, let announced) = state, s == session else { return [] }
        return finishRestore(s, announced: announced, failure: restored ? nil : .declinedByApp, reason: .restore)
    }

    /// The driver's restore timer for `session` fired before the app completed.
    ///
    /// While restoring that session: as ``restoreCompleted(_:session:)`` with
    /// `false`, but reporting `restoreFailed(session, .timedOut)`. Otherwise
    /// (the app completed first, or the session is gone) no actions, so the
    /// driver never has to cancel the timer.
    public mutating func restoreTimedOut(session: SessionID) -> [PictureInPictureAction] {
        guard case .restoring(let s, let announced) = state, s == session else { return [] }
        return finishRestore(s, announced: announced, failure: .timedOut, reason: .restore)
    }

    /// Enters restoring from active, in the profile's order.
    mutating func beginRestore(_ s: SessionID) -> [PictureInPictureAction] {
        let announced = profile.announcesStopBeforeRestore
        state = .restoring(s, stopAnnounced: announced)
        return (announced ? [.emit(.willStop)] : [])
            + [.emit(.restoreUserInterface), .awaitRestoreCompletion(s, timeout: restoreTimeout)]
    }
}

/// Skips from the window.
extension PictureInPictureStateMachine {
    /// Whether a skip would be honoured right now: the window is visible
    /// (active, not suspended) and ``requiresLinearPlayback`` is `false`.
    /// A pure function of the current state.
    public var canSkip: Bool {
        guard case .active(_, _, suspended: false) = state else { return false }
        return !requiresLinearPlayback
    }

    /// The user skipped or scrubbed by `interval` in the window.
    ///
    /// When ``canSkip`` and `interval` is not zero: `[seek(SkipRequest)]` with a
    /// fresh ``SkipRequestID``. Otherwise no actions and no identifier is
    /// consumed: linear playback forbids skipping (AVKit hides the controls and
    /// ignores the request), a hidden, restoring or closing window cannot be
    /// skipped from, and a zero skip is no skip.
    public mutating func userSkipped(by interval: Duration) -> [PictureInPictureAction] {
        guard canSkip, interval != .zero, let s = currentSession else { return [] }
        lastSeekRequest = lastSeekRequest.next
        return [.seek(SkipRequest(id: lastSeekRequest, session: s, interval: interval))]
    }
}
