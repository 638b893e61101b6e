/// The media-free core of `AVPictureInPictureController`: a value that decides,
/// for every event, what the driver must do next.
///
/// The machine owns no window, player, thread or clock. Each event is a
/// `mutating func` that returns the ``PictureInPictureAction``s to perform in
/// order; the driver performs them outside any lock and feeds the host's
/// answers back as further events. Because it is a plain `struct`, a test can
/// copy it, drive it, and compare the returned actions exactly.
///
/// ## States
///
/// - **idle**: no session.
/// - **starting**: `willStart` emitted, waiting for the host to open the window.
///   A stop that arrives now is remembered and carried out as soon as the
///   window opens (`didStart`, `willStop`, `closeWindow`), so every start is
///   answered and the machine never sticks.
/// - **active**: the window is open. ``isSuspended`` is a flag of this state.
/// - **restoring**: `restoreUserInterface` emitted, waiting for the app's completion.
/// - **stopping**: `willStop` emitted and `closeWindow` requested, waiting for the host.
///
/// ## Ignore or throw
///
/// Only ``startRequested(preconditions:)`` throws: it is the one call the app
/// can make at a wrong time, and a wrong start deserves a typed error. Every
/// other event comes from the host, the user, the system, or is an idempotent
/// app request (a stop while nothing runs, as in AVKit); in a state where it
/// makes no sense it returns no actions. Host callbacks whose ``SessionID`` is
/// not the current session's are stale and always ignored.
///
/// After `didStop` or `failedToStart` the session's identifier is retired:
/// nothing further is ever emitted for it.
public struct PictureInPictureStateMachine: Sendable {
    /// The machine's state. Internal (not public) so the event extensions in
    /// sibling files can switch on it; nothing outside the module sees it.
    enum State: Equatable, Sendable {
        case idle
        /// `automatic`: started by ``enteredBackground(isPlaying:canStartAutomatically:preconditions:)``.
        /// `pendingStop`: a stop that arrived before the window opened.
        case starting(SessionID, automatic: Bool, pendingStop: StopReason?)
        case active(SessionID, automatic: Bool, suspended: Bool)
        /// `stopAnnounced`: `willStop` was already emitted (macOS order).
        case restoring(SessionID, stopAnnounced: Bool)
        case stopping(SessionID)
    }

    /// The delegate ordering this machine reproduces.
    public let profile: HostProfile
    /// How long the driver waits for the app's restore completion before
    /// calling ``restoreTimedOut(session:)``; echoed in
    /// ``PictureInPictureAction/awaitRestoreCompletion(_:timeout:)``.
    public let restoreTimeout: Duration
    /// When `true`, skip requests from the window are refused
    /// (`AVPictureInPictureController.requiresLinearPlayback`). May change at any time.
    public var requiresLinearPlayback: Bool
    /// The latest preconditions the machine was told about.
    public internal(set) var preconditions: PictureInPicturePreconditions
    /// `true` after ``controllerReleased()``: no new session will ever start.
    public internal(set) var isReleased: Bool = false

    var state: State = .idle
    var lastSession: SessionID = SessionID(rawValue: 0)
    var lastSeekRequest: SkipRequestID = SkipRequestID(rawValue: 0)

    /// Creates an idle machine.
    /// - Parameters:
    ///   - profile: whose restore ordering to follow.
    ///   - preconditions: the facts known at creation; ``isPossible`` starts from them
    ///     and no `possibleChanged` is emitted for this initial value.
    ///   - restoreTimeout: how long the app may take to complete a restore.
    ///   - requiresLinearPlayback: whether skips are refused.
    public init(
        profile: HostProfile,
        preconditions: PictureInPicturePreconditions = PictureInPicturePreconditions(),
        restoreTimeout: Duration = .seconds(5),
        requiresLinearPlayback: Bool = false
    ) {
        self.profile = profile
        self.preconditions = preconditions
        self.restoreTimeout = restoreTimeout
        self.requiresLinearPlayback = requiresLinearPlayback
    }

    // MARK: Observation

    /// A read-only summary of the state, for drivers and tests.
    public enum Phase: String, CaseIterable, Equatable, Hashable, Sendable {
        /// No session.
        case idle
        /// `willStart` emitted; waiting for the host to open the window.
        case starting
        /// The window is open (possibly suspended).
        case active
        /// `restoreUserInterface` emitted; waiting for the app's completion or the timeout.
        case restoring
        /// `closeWindow` requested; waiting for the host to close the window.
        case stopping
    }

    /// The current phase.
    public var phase: Phase {
        switch state {
        case .idle: return .idle
        case .starting: return .starting
        case .active: return .active
        case .restoring: return .restoring
        case .stopping: return .stopping
        }
    }

    /// The session in progress, from `willStart` until its `didStop` or
    /// `failedToStart`; `nil` when idle.
    public var currentSession: SessionID? {
        switch state {
        case .idle: return nil
        case .starting(let s, _, _), .active(let s, _, _), .restoring(let s, _), .stopping(let s): return s
        }
    }

    /// `isPictureInPictureActive`: `true` from `didStart` until `didStop`
    /// (active, restoring and stopping).
    public var isActive: Bool {
        switch state {
        case .idle, .starting: return false
        case .active, .restoring, .stopping: return true
        }
    }

    /// `isPictureInPictureSuspended`: `true` only while active and hidden
    /// behind another app's Picture in Picture.
    public var isSuspended: Bool {
        if case .active(_, _, suspended: true) = state { return true }
        return false
    }

    /// `isPictureInPicturePossible`, from the latest ``preconditions``.
    public var isPossible: Bool { preconditions.isPossible }

    // MARK: Shared transitions (used by the event extensions)

    /// Records new preconditions; returns `possibleChanged` if ``isPossible`` flipped.
    mutating func record(_ new: PictureInPicturePreconditions) -> [PictureInPictureAction] {
        let was = isPossible
        preconditions = new
        return was == isPossible ? [] : [.emit(.possibleChanged(isPossible))]
    }

    /// Opens a new session from idle: `willStart`, `openWindow`.
    mutating func beginSession(automatic: Bool) -> [PictureInPictureAction] {
        lastSession = lastSession.next
        state = .starting(lastSession, automatic: automatic, pendingStop: nil)
        return [.emit(.willStart), .openWindow(lastSession)]
    }

    /// Starts the stop handshake from wherever the machine is, for `reason`.
    /// Idle and stopping: nothing. Starting: the stop is remembered (the first
    /// reason wins) and performed when the window opens. Active: `willStop`,
    /// `closeWindow`. Restoring: the restore is abandoned
    /// (``RestoreFailure/interrupted``) and the stop proceeds.
    mutating func requestStop(_ reason: StopReason) -> [PictureInPictureAction] {
        switch state {
        case .idle, .stopping:
            return []
        case .starting(let s, let automatic, let pending):
            state = .starting(s, automatic: automatic, pendingStop: pending ?? reason)
            return []
        case .active(let s, _, let suspended):
            return unsuspend(s, suspended) + announceStop(s, reason)
        case .restoring(let s, let announced):
            return finishRestore(s, announced: announced, failure: .interrupted, reason: reason)
        }
    }

    /// `suspendedChanged(false)` when leaving active while suspended, so the
    /// flag is always cleared before the session's `willStop`.
    func unsuspend(_ session: SessionID, _ suspended: Bool) -> [PictureInPictureAction] {
        suspended ? [.emit(.suspendedChanged(false))] : []
    }

    /// `willStop`, `closeWindow`; enters stopping.
    mutating func announceStop(_ s: SessionID, _ reason: StopReason) -> [PictureInPictureAction] {
        state = .stopping(s)
        return [.emit(.willStop), .closeWindow(s, reason)]
    }

    /// Leaves restoring towards stopping: an optional `restoreFailed`, then
    /// `willStop` unless already announced, then `closeWindow`.
    mutating func finishRestore(
        _ s: SessionID, announced: Bool, failure: RestoreFailure?, reason: StopReason
    ) -> [PictureInPictureAction] {
        var actions: [PictureInPictureAction] = failure.map { [.restoreFailed(s, $0)] } ?? []
        if !announced { actions.append(.emit(.willStop)) }
        actions.append(.closeWindow(s, reason))
        state = .stopping(s)
        return actions
    }
}
