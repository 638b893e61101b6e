/// Events from the world around a session: suspension by another app,
/// precondition changes, content source replacement, and app lifecycle.
extension PictureInPictureStateMachine {
    /// Another app's Picture in Picture took the screen; ours is hidden but
    /// the session stays alive.
    ///
    /// While active and not suspended: `[suspendedChanged(true), hideWindow(session)]`.
    /// Otherwise no actions (starting, restoring and stopping sessions are
    /// about to change anyway; a second suspend is a repeat).
    public mutating func suspend() -> [PictureInPictureAction] {
        guard case .active(let s, let automatic, suspended: false) = state else { return [] }
        state = .active(s, automatic: automatic, suspended: true)
        return [.emit(.suspendedChanged(true)), .hideWindow(s)]
    }

    /// The other app's Picture in Picture went away; ours may show again.
    ///
    /// While active and suspended: `[suspendedChanged(false), showWindow(session)]`.
    /// Otherwise no actions. A session that leaves active while suspended
    /// (stop, restore after foregrounding, termination) emits
    /// `suspendedChanged(false)` itself, before its `willStop`.
    public mutating func resume() -> [PictureInPictureAction] {
        guard case .active(let s, let automatic, suspended: true) = state else { return [] }
        state = .active(s, automatic: automatic, suspended: false)
        return [.emit(.suspendedChanged(false)), .showWindow(s)]
    }

    /// The driver observed new preconditions.
    ///
    /// Returns `[possibleChanged(isPossible)]` when ``isPossible`` flips, else
    /// nothing, in every state. A running session is never stopped by this
    /// event, as in AVKit, where `isPictureInPicturePossible` turning false
    /// does not end an active Picture in Picture; the one precondition that
    /// does end it, content readiness, arrives through
    /// ``contentSourceReplaced(isReadyForDisplay:)``.
    public mutating func preconditionsChanged(_ new: PictureInPicturePreconditions) -> [PictureInPictureAction] {
        record(new)
    }

    /// The app replaced the controller's content source.
    ///
    /// Always emits `contentSourceChanged` first (it describes the controller,
    /// in any state), then `possibleChanged` if the new readiness flips
    /// ``isPossible``. Then:
    /// - ready: nothing more; a running session keeps going with the new
    ///   content (no stop, no new start).
    /// - not ready: a running session is stopped with reason
    ///   ``StopReason/contentSourceNotReady``, exactly as by ``stopRequested(by:)``
    ///   (active: `willStop`, `closeWindow`; starting: stop once open;
    ///   restoring: restore interrupted). `didStop` follows the host's close.
    public mutating func contentSourceReplaced(isReadyForDisplay: Bool) -> [PictureInPictureAction] {
        var updated = preconditions
        updated.isContentSourceReadyForDisplay = isReadyForDisplay
        var actions: [PictureInPictureAction] = [.emit(.contentSourceChanged)]
        actions += record(updated)
        if !isReadyForDisplay { actions += requestStop(.contentSourceNotReady) }
        return actions
    }

    /// The app moved to the background
    /// (`canStartPictureInPictureAutomaticallyFromInline`).
    ///
    /// Records `preconditions` (`possibleChanged` if it flips). Then, only when
    /// idle, not released, `isPlaying`, `canStartAutomatically` and possible,
    /// starts an *automatic* session: `[willStart, openWindow(newSession)]`.
    /// If any condition fails nothing starts and nothing is reported: the app
    /// did not ask, so there is no `failedToStart`.
    public mutating func enteredBackground(
        isPlaying: Bool, canStartAutomatically: Bool, preconditions new: PictureInPicturePreconditions
    ) -> [PictureInPictureAction] {
        var actions = record(new)
        if case .idle = state, !isReleased, isPlaying, canStartAutomatically, isPossible {
            actions += beginSession(automatic: true)
        }
        return actions
    }

    /// The app returned to the foreground.
    ///
    /// Only automatic sessions react; a session the app started explicitly
    /// keeps running in the foreground.
    /// - active automatic session: the restore flow begins, as if the user had
    ///   tapped restore (``restoreTapped()``), even when suspended
    ///   (`suspendedChanged(false)` first).
    /// - starting automatic session: no actions now; the session stops as soon
    ///   as the window opens, with reason ``StopReason/returnedToForeground``.
    /// - anything else: no actions.
    public mutating func enteredForeground() -> [PictureInPictureAction] {
        switch state {
        case .active(let s, automatic: true, let suspended):
            return unsuspend(s, suspended) + beginRestore(s)
        case .starting(_, automatic: true, _):
            return requestStop(.returnedToForeground)
        default:
            return []
        }
    }
}
