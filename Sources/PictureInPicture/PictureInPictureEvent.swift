/// The delegate vocabulary: what the driver tells the app, in the order the
/// state machine emits it (`AVPictureInPictureControllerDelegate` plus the
/// key-value observations apps usually make).
///
/// Events fall in two groups.
///
/// *Session events* belong to one Picture in Picture session and obey a fixed
/// grammar, which the state machine guarantees:
///
///     willStart ( failedToStart
///               | didStart [suspendedChanged…] [restoreUserInterface] willStop didStop )
///
/// On ``HostProfile/macOS`` `restoreUserInterface` comes after `willStop`
/// instead of before it. A `failedToStart` may also stand alone, without a
/// `willStart`, when ``PictureInPictureStateMachine/startRequested(preconditions:)``
/// is rejected by a precondition: no session was created, exactly as AVKit
/// calls `failedToStartPictureInPictureWithError` without
/// `willStartPictureInPicture` when Picture in Picture is not possible.
/// After `didStop` or `failedToStart` nothing more is emitted for that session,
/// and at most one session is open at a time.
///
/// *Controller events* (`possibleChanged`, `contentSourceChanged`) describe the
/// controller, not a session, and may be emitted in any state.
public enum PictureInPictureEvent: Equatable, Hashable, Sendable {
    /// A session is starting; the window is about to open.
    case willStart
    /// The window is open and showing content.
    case didStart
    /// The start failed; the associated error says why. Ends the session if one was open.
    case failedToStart(PictureInPictureError)
    /// The user asked to return to the app. The app must restore its player UI
    /// and then complete with ``PictureInPictureStateMachine/restoreCompleted(_:session:)``.
    case restoreUserInterface
    /// The session is about to stop; the window is about to close.
    case willStop
    /// The window has closed; the session is over.
    case didStop
    /// `isPossible` changed to the associated value.
    case possibleChanged(Bool)
    /// `isSuspended` changed to the associated value (another app's Picture in
    /// Picture took over the screen, or gave it back).
    case suspendedChanged(Bool)
    /// The controller's content source was replaced.
    case contentSourceChanged

    /// `true` for events that belong to a session (everything except
    /// `possibleChanged` and `contentSourceChanged`).
    public var isSessionEvent: Bool {
        switch self {
        case .possibleChanged, .contentSourceChanged: return false
        default: return true
        }
    }
}

/// The platform whose delegate ordering the state machine reproduces.
///
/// The two AVKit platforms differ only in where the app's chance to restore
/// its user interface falls relative to the stop announcement.
///
/// ``iOS``:
///
///     restoreTapped → restoreUserInterface → [app completes] → willStop → (window closes) → didStop
///
/// ``macOS``:
///
///     restoreTapped → willStop → restoreUserInterface → [app completes] → (window closes) → didStop
///
/// In both, the window is asked to close (``PictureInPictureAction/closeWindow(_:_:)``
/// with reason ``StopReason/restore``) only after the app completes, so the
/// host can animate the content back into the restored UI.
///
/// **Completion with `false`.** As in AVKit, the session still stops: the app
/// said its UI was *not* restored, but Picture in Picture does not stay open
/// for it. The machine emits the remaining stop events (`willStop` on iOS,
/// then `closeWindow`, then `didStop` once the host has closed the window) and
/// adds ``PictureInPictureAction/restoreFailed(_:_:)`` with
/// ``RestoreFailure/declinedByApp`` ahead of them so the driver can log it.
///
/// **No completion at all.** When the machine enters the restoring state it
/// returns ``PictureInPictureAction/awaitRestoreCompletion(_:timeout:)``. The
/// driver arms a timer for that timeout (configured by
/// ``PictureInPictureStateMachine/restoreTimeout``) and, if it fires, calls
/// ``PictureInPictureStateMachine/restoreTimedOut(session:)``. The stop then
/// proceeds exactly as for a `false` completion, with
/// ``RestoreFailure/timedOut``. A completion that arrives after the timeout is
/// ignored, so the driver need not cancel the timer: a late timer or a late
/// completion for a session that has moved on is ignored.
public enum HostProfile: String, CaseIterable, Equatable, Hashable, Sendable {
    /// `restoreUserInterface` before `willStop`.
    case iOS
    /// `willStop` before `restoreUserInterface`.
    case macOS

    /// `true` when `willStop` is emitted before `restoreUserInterface` (macOS).
    public var announcesStopBeforeRestore: Bool { self == .macOS }
}
