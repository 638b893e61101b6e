/// Starting a session: the app's request and the host's answer.
extension PictureInPictureStateMachine {
    /// The app calls `startPictureInPicture()`.
    ///
    /// The preconditions are recorded first (emitting `possibleChanged` if
    /// ``isPossible`` flips). Then, from idle:
    /// - if a precondition fails: `[failedToStart(error)]` for the first failing
    ///   one (see ``PictureInPicturePreconditions/check()``), **without**
    ///   `willStart`. This is AVKit's behaviour: no session is created, no
    ///   window is asked for, and no ``SessionID`` is consumed. The machine stays idle.
    /// - otherwise: `[willStart, openWindow(newSession)]`, entering starting.
    ///
    /// - Throws: misuse, leaving the machine and its recorded preconditions
    ///   unchanged: ``PictureInPictureError/controllerReleased`` after
    ///   ``controllerReleased()``; ``PictureInPictureError/startInProgress`` while
    ///   starting; ``PictureInPictureError/suspended`` while active and
    ///   suspended; ``PictureInPictureError/alreadyActive`` while active,
    ///   restoring or stopping.
    public mutating func startRequested(
        preconditions: PictureInPicturePreconditions
    ) throws(PictureInPictureError) -> [PictureInPictureAction] {
        if isReleased { throw .controllerReleased }
        switch state {
        case .idle: break
        case .starting: throw .startInProgress
        case .active(_, _, suspended: true): throw .suspended
        case .active, .restoring, .stopping: throw .alreadyActive
        }
        var actions = record(preconditions)
        if let failure = preconditions.check() {
            actions.append(.emit(.failedToStart(failure)))
            return actions
        }
        return actions + beginSession(automatic: false)
    }

    /// The host opened the window for `session`.
    ///
    /// While starting that session: `[didStart]`, entering active; if a stop
    /// arrived meanwhile, the stop follows at once: `[didStart, willStop,
    /// closeWindow(session, reason)]`, entering stopping. In any other state,
    /// or for any other session, the callback is stale: no actions.
    public mutating func hostDidOpenWindow(_ session: SessionID) -> [PictureInPictureAction] {
        guard case .starting(let s, let automatic, let pending) = state, s == session else { return [] }
        state = .active(s, automatic: automatic, suspended: false)
        guard let reason = pending else { return [.emit(.didStart)] }
        return [.emit(.didStart)] + announceStop(s, reason)
    }

    /// The host refused or failed to open the window for `session`.
    ///
    /// While starting that session: `[failedToStart(.systemFailed(reason))]`,
    /// back to idle; a pending stop is moot. Otherwise stale: no actions.
    public mutating func hostFailedToOpen(_ session: SessionID, reason: String) -> [PictureInPictureAction] {
        guard case .starting(let s, _, _) = state, s == session else { return [] }
        state = .idle
        return [.emit(.failedToStart(.systemFailed(reason)))]
    }
}

/// Ending a session: requested stops, the host's close, and the two ways the
/// controller itself goes away.
extension PictureInPictureStateMachine {
    /// Someone asks Picture in Picture to stop (`stopPictureInPicture()`, the
    /// window's close button, or the system). The requester only labels the
    /// resulting ``StopReason``; the transitions are the same for all three.
    ///
    /// - idle, stopping: no actions (stopping is idempotent, as in AVKit).
    /// - starting: no actions now; the stop is remembered and carried out when
    ///   the window opens (`didStart`, `willStop`, `closeWindow`). If the host
    ///   fails to open instead, `failedToStart` ends the session and the stop is moot.
    /// - active: `[willStop, closeWindow(session, .requested(by:))]`, preceded by
    ///   `suspendedChanged(false)` if suspended; enters stopping.
    /// - restoring: the restore is abandoned: `[restoreFailed(session,
    ///   .interrupted), willStop (iOS only; macOS already sent it),
    ///   closeWindow]`; enters stopping. The app's later completion is ignored.
    public mutating func stopRequested(by requester: StopRequester) -> [PictureInPictureAction] {
        requestStop(.requested(by: requester))
    }

    /// The host reports that `session`'s window has closed.
    ///
    /// - stopping that session: `[didStop]`, back to idle.
    /// - active or restoring that session (the host closed the window without
    ///   being asked): the session ends here, `[suspendedChanged(false)?,
    ///   willStop, didStop]`, or from restoring `[restoreFailed(.interrupted),
    ///   willStop (iOS only), didStop]`; back to idle.
    /// - starting that session (closed before it ever opened):
    ///   `[failedToStart(.systemFailed(…))]`, back to idle.
    /// - otherwise stale: no actions.
    public mutating func hostDidCloseWindow(_ session: SessionID) -> [PictureInPictureAction] {
        guard currentSession == session else { return [] }
        return endImmediately(
            startFailure: .systemFailed("the window closed before it opened"),
            closeReason: nil
        )
    }

    /// The app is terminating. The window goes away at once: there is no
    /// restore and no host handshake, and the machine is idle afterwards.
    ///
    /// - idle: no actions.
    /// - starting: `[closeWindow(session, .appTerminated), failedToStart(.startCancelled)]`
    ///   (`willStop`/`didStop` are reserved for sessions that started; the
    ///   close comes first because nothing may name a session after its
    ///   `failedToStart`).
    /// - active: `[suspendedChanged(false)?, willStop, closeWindow(session, .appTerminated), didStop]`.
    /// - restoring: `[restoreFailed(session, .interrupted), willStop (iOS only),
    ///   closeWindow(session, .appTerminated), didStop]`.
    /// - stopping: `[didStop]` (the close was already requested).
    ///
    /// Any host callback arriving afterwards is stale and ignored.
    public mutating func appTerminated() -> [PictureInPictureAction] {
        endImmediately(startFailure: .startCancelled, closeReason: .appTerminated)
    }

    /// The app releases its controller while the driver lives on.
    ///
    /// The release is permanent: afterwards ``isReleased`` is `true`,
    /// ``startRequested(preconditions:)`` throws
    /// ``PictureInPictureError/controllerReleased`` and background
    /// auto-start never fires. A running session is not dropped but stopped
    /// cleanly, exactly like ``stopRequested(by:)`` with reason
    /// ``StopReason/controllerReleased`` (a start in progress completes and
    /// then stops; a restore is interrupted), so the host still gets a
    /// `closeWindow` and the delegate still gets a complete `willStop`/`didStop`
    /// pair. Idle or stopping: no actions. Releasing twice: no actions.
    public mutating func controllerReleased() -> [PictureInPictureAction] {
        isReleased = true
        return requestStop(.controllerReleased)
    }

    /// Ends the current session now, without waiting for the host, emitting
    /// whatever the session's grammar still owes. From stopping that is just
    /// `didStop` (the close was already requested). `closeReason == nil` means
    /// the window is already gone.
    mutating func endImmediately(
        startFailure: PictureInPictureError, closeReason: StopReason?
    ) -> [PictureInPictureAction] {
        let close: (SessionID) -> [PictureInPictureAction] = { s in
            closeReason.map { [.closeWindow(s, $0)] } ?? []
        }
        let actions: [PictureInPictureAction]
        switch state {
        case .idle:
            return []
        case .starting(let s, _, _):
            actions = close(s) + [.emit(.failedToStart(startFailure))]
        case .active(let s, _, let suspended):
            actions = unsuspend(s, suspended) + [.emit(.willStop)] + close(s) + [.emit(.didStop)]
        case .restoring(let s, let announced):
            actions =
                [.restoreFailed(s, .interrupted)]
                + (announced ? [] : [.emit(.willStop)]) + close(s) + [.emit(.didStop)]
        case .stopping:
            actions = [.emit(.didStop)]
        }
        state = .idle
        return actions
    }
}
