/// One thing the driver must do after feeding an event to
/// ``PictureInPictureStateMachine``.
///
/// Every event returns an ordered array of actions. The driver performs them
/// in order, outside any lock, and reports the host's answers back as further
/// events carrying the ``SessionID`` it was given.
public enum PictureInPictureAction: Equatable, Hashable, Sendable {
    /// Tell the app (delegate) this event.
    case emit(PictureInPictureEvent)
    /// Ask the host to open the Picture in Picture window for this session.
    /// The host answers with exactly one of
    /// ``PictureInPictureStateMachine/hostDidOpenWindow(_:)`` or
    /// ``PictureInPictureStateMachine/hostFailedToOpen(_:reason:)``.
    case openWindow(SessionID)
    /// Ask the host to close this session's window; the reason lets it pick an
    /// animation (back into the app for ``StopReason/restore``). The host
    /// answers with ``PictureInPictureStateMachine/hostDidCloseWindow(_:)``.
    case closeWindow(SessionID, StopReason)
    /// Hide the window while another app's Picture in Picture is in front
    /// (suspension); the session stays alive.
    case hideWindow(SessionID)
    /// Show the window again after a suspension ends.
    case showWindow(SessionID)
    /// The app has been sent ``PictureInPictureEvent/restoreUserInterface``.
    /// Give it a completion that calls
    /// ``PictureInPictureStateMachine/restoreCompleted(_:session:)`` and arm a
    /// timer that calls ``PictureInPictureStateMachine/restoreTimedOut(session:)``
    /// after `timeout`.
    case awaitRestoreCompletion(SessionID, timeout: Duration)
    /// The app's user interface was not restored; the session stops anyway.
    /// For logging only: the stop actions that follow need no special handling.
    case restoreFailed(SessionID, RestoreFailure)
    /// Perform this skip on the player and complete it exactly once.
    case seek(SkipRequest)
}
