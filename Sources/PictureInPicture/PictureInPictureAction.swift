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

/// Who asked for a stop through ``PictureInPictureStateMachine/stopRequested(by:)``.
public enum StopRequester: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The app called `stopPictureInPicture()`.
    case app
    /// The user closed the window with its close button.
    case user
    /// The system ended Picture in Picture (for example, to free resources).
    case system
}

/// Why a session's window is being closed; carried by
/// ``PictureInPictureAction/closeWindow(_:_:)``.
public enum StopReason: Equatable, Hashable, Sendable {
    /// ``PictureInPictureStateMachine/stopRequested(by:)``.
    case requested(by: StopRequester)
    /// The restore flow finished (completed, declined, or timed out).
    case restore
    /// The content source was replaced by one that is not ready for display.
    case contentSourceNotReady
    /// The controller was released.
    case controllerReleased
    /// The app returned to the foreground before an automatic start had finished opening.
    case returnedToForeground
    /// The app is terminating; the host must drop the window at once, without animation.
    case appTerminated
}

/// Why the app's user interface was not restored.
public enum RestoreFailure: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The app completed the restore with `false`.
    case declinedByApp
    /// The app did not complete within the restore timeout.
    case timedOut
    /// The session ended before the app completed (a stop, a release, a
    /// termination, or the host closing the window); a later completion is ignored.
    case interrupted
}

/// Identifies one Picture in Picture session: one `willStart` and everything
/// up to its `didStop` or `failedToStart`.
///
/// The state machine hands out strictly increasing identifiers (a generation
/// counter) and puts the identifier in every window action. Host callbacks
/// carry it back, so a callback meant for a session that has already ended
/// or been abandoned (a *stale* callback) is recognised and ignored.
public struct SessionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The generation number; the first session of a machine is 1.
    public let rawValue: UInt64

    /// Wraps a generation number. Drivers normally only echo identifiers they
    /// received; creating one is for tests and persistence.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The identifier that follows this one.
    public var next: SessionID { SessionID(rawValue: rawValue &+ 1) }

    /// Orders identifiers by generation: a larger one was created later.
    public static func < (lhs: SessionID, rhs: SessionID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"session#N"`.
    public var description: String { "session#\(rawValue)" }
}

/// Identifies one skip (seek) request from the Picture in Picture window.
///
/// Identifiers are unique for the lifetime of a state machine and strictly
/// increasing. The machine emits each one in exactly one
/// ``PictureInPictureAction/seek(_:)`` action, so the driver completes each
/// request exactly once.
public struct SeekRequestID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The request number; the first request of a machine is 1.
    public let rawValue: UInt64

    /// Wraps a request number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The identifier that follows this one.
    public var next: SeekRequestID { SeekRequestID(rawValue: rawValue &+ 1) }

    /// Orders identifiers by creation.
    public static func < (lhs: SeekRequestID, rhs: SeekRequestID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"seek#N"`.
    public var description: String { "seek#\(rawValue)" }
}

/// One skip (seek) the Picture in Picture window asked for: the window's
/// skip-forward/skip-back buttons or its scrubber.
///
/// The driver performs it on the player and completes it exactly once,
/// keyed by ``id``. The machine never emits the same ``id`` twice.
public struct SkipRequest: Equatable, Hashable, Sendable {
    /// Unique for the lifetime of the machine.
    public let id: SeekRequestID
    /// The session whose window asked.
    public let session: SessionID
    /// How far to move from the current time; negative skips back.
    public let interval: Duration

    /// Creates a request. Drivers receive these from the machine; creating one
    /// is for tests.
    public init(id: SeekRequestID, session: SessionID, interval: Duration) {
        self.id = id
        self.session = session
        self.interval = interval
    }
}
