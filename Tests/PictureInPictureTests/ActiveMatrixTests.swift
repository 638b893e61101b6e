import PictureInPicture
import Testing

/// State × event matrix for an open window: manual, automatic, and suspended.
@Suite("Matrix: active")
struct ActiveMatrixTests {
    func active(_ fixture: Fixture, _ profile: HostProfile, _ event: MatrixEvent) {
        let suspended = fixture == .activeSuspended
        let automatic = fixture == .activeAutomatic
        // Leaving active while suspended clears the flag first.
        let unsuspend = suspended ? [suspendedChanged(false)] : []
        let restore = (profile == .macOS ? [willStop] : []) + [restoreUI, awaitRestore(current)]
        let outcome: Outcome
        switch event {
        case .startPossible, .startImpossible:
            outcome = .misuse(suspended ? .suspended : .alreadyActive)
        case .stopApp:
            outcome = .actions(unsuspend + [willStop, close(current, .requested(by: .app))], .stopping)
        case .stopUser:
            outcome = .actions(unsuspend + [willStop, close(current, .requested(by: .user))], .stopping)
        case .stopSystem:
            outcome = .actions(unsuspend + [willStop, close(current, .requested(by: .system))], .stopping)
        case .hostClosed:
            outcome = .actions(unsuspend + [willStop, didStop], .idle)
        case .restoreTapped:
            outcome = suspended ? none(.active) : .actions(restore, .restoring)
        case .suspend:
            outcome = suspended ? none(.active) : .actions([suspendedChanged(true), .hideWindow(current)], .active)
        case .resume:
            outcome = suspended ? .actions([suspendedChanged(false), .showWindow(current)], .active) : none(.active)
        case .appTerminated:
            outcome = .actions(unsuspend + [willStop, close(current, .appTerminated), didStop], .idle)
        case .contentReady:
            outcome = .actions([contentChanged], .active)
        case .contentNotReady:
            outcome = .actions(
                [contentChanged, possibleChanged(false)] + unsuspend
                    + [willStop, close(current, .contentSourceNotReady)], .stopping)
        case .controllerReleased:
            outcome = .actions(unsuspend + [willStop, close(current, .controllerReleased)], .stopping)
        case .preconditionsFlip:
            outcome = .actions([possibleChanged(false)], .active)
        case .foreground:
            outcome = automatic ? .actions(unsuspend + restore, .restoring) : none(.active)
        case .skip:
            let request = SkipRequest(id: SkipRequestID(rawValue: 1), session: current, interval: .seconds(15))
            outcome = suspended ? none(.active) : .actions([.seek(request)], .active)
        case .hostOpened, .hostOpenedStale, .hostFailed, .hostFailedStale, .hostClosedStale,
            .restoreCompletedTrue, .restoreCompletedFalse, .restoreCompletedStale,
            .restoreTimedOut, .restoreTimedOutStale, .preconditionsSame,
            .backgroundAutoStart, .backgroundNotPlaying, .skipWhileLinear:
            outcome = none(.active)
        }
        verify(fixture, profile, event, outcome)
    }

    @Test("active × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func active(profile: HostProfile, event: MatrixEvent) {
        active(.active, profile, event)
    }

    @Test("automatic active × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func activeAutomatic(profile: HostProfile, event: MatrixEvent) {
        active(.activeAutomatic, profile, event)
    }

    @Test("suspended active × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func activeSuspended(profile: HostProfile, event: MatrixEvent) {
        active(.activeSuspended, profile, event)
    }

    @Test("isSuspended follows suspend and resume, and clears when the session stops")
    func suspensionFlag() {
        var m = Fixture.active.make()
        #expect(!m.isSuspended)
        _ = m.suspend()
        #expect(m.isSuspended && m.isActive)
        _ = m.resume()
        #expect(!m.isSuspended)
        _ = m.suspend()
        _ = m.stopRequested(by: .system)
        #expect(!m.isSuspended && m.phase == .stopping)
    }

    @Test("an automatic session resumed from suspension no longer needs the flag cleared on foreground")
    func foregroundAfterResume() {
        var m = Fixture.activeAutomatic.make()
        _ = m.suspend()
        _ = m.resume()
        #expect(m.enteredForeground() == [restoreUI, awaitRestore(current)])
    }
}
