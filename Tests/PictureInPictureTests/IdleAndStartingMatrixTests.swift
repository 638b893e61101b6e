import PictureInPicture
import Testing

/// State × event matrix for the states without an open window.
/// The `switch`es have no `default`, so adding an event forces a decision here.
@Suite("Matrix: idle and starting")
struct IdleAndStartingMatrixTests {
    @Test("idle × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func idle(profile: HostProfile, event: MatrixEvent) {
        let outcome: Outcome
        switch event {
        case .startPossible, .backgroundAutoStart:
            outcome = .actions([willStart, .openWindow(current)], .starting)
        case .startImpossible:
            outcome = .actions([possibleChanged(false), failed(.audioSessionInactive)], .idle)
        case .contentReady:
            outcome = .actions([contentChanged], .idle)
        case .contentNotReady:
            outcome = .actions([contentChanged, possibleChanged(false)], .idle)
        case .preconditionsFlip:
            outcome = .actions([possibleChanged(false)], .idle)
        case .hostOpened, .hostOpenedStale, .hostFailed, .hostFailedStale,
            .stopApp, .stopUser, .stopSystem, .hostClosed, .hostClosedStale,
            .restoreTapped, .restoreCompletedTrue, .restoreCompletedFalse, .restoreCompletedStale,
            .restoreTimedOut, .restoreTimedOutStale, .suspend, .resume, .appTerminated,
            .controllerReleased, .preconditionsSame, .backgroundNotPlaying, .foreground,
            .skip, .skipWhileLinear:
            outcome = none(.idle)
        }
        verify(.idle, profile, event, outcome)
    }

    /// Shared by the three starting fixtures; `foreground` and the pending
    /// reason are the only differences, and those show up on `hostOpened`.
    func starting(_ fixture: Fixture, _ profile: HostProfile, _ event: MatrixEvent, openedStopReason: StopReason?) {
        let outcome: Outcome
        switch event {
        case .startPossible, .startImpossible:
            outcome = .misuse(.startInProgress)
        case .hostOpened:
            if let reason = openedStopReason {
                outcome = .actions([didStart, willStop, close(current, reason)], .stopping)
            } else {
                outcome = .actions([didStart], .active)
            }
        case .hostFailed:
            outcome = .actions([failed(.systemFailed("host said no"))], .idle)
        case .hostClosed:
            outcome = .actions([failed(.systemFailed("the window closed before it opened"))], .idle)
        case .appTerminated:
            outcome = .actions([close(current, .appTerminated), failed(.startCancelled)], .idle)
        case .contentReady:
            outcome = .actions([contentChanged], .starting)
        case .contentNotReady:
            outcome = .actions([contentChanged, possibleChanged(false)], .starting)
        case .preconditionsFlip:
            outcome = .actions([possibleChanged(false)], .starting)
        case .hostOpenedStale, .hostFailedStale, .stopApp, .stopUser, .stopSystem, .hostClosedStale,
            .restoreTapped, .restoreCompletedTrue, .restoreCompletedFalse, .restoreCompletedStale,
            .restoreTimedOut, .restoreTimedOutStale, .suspend, .resume, .controllerReleased,
            .preconditionsSame, .backgroundAutoStart, .backgroundNotPlaying, .foreground,
            .skip, .skipWhileLinear:
            outcome = none(.starting)
        }
        verify(fixture, profile, event, outcome)
    }

    @Test("starting × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func starting(profile: HostProfile, event: MatrixEvent) {
        starting(.starting, profile, event, openedStopReason: nil)
    }

    @Test("starting with a pending stop × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func startingWithPendingStop(profile: HostProfile, event: MatrixEvent) {
        starting(.startingWithPendingStop, profile, event, openedStopReason: .requested(by: .user))
    }

    @Test("automatic starting × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func startingAutomatic(profile: HostProfile, event: MatrixEvent) {
        starting(.startingAutomatic, profile, event, openedStopReason: nil)
    }

    @Test(
        "a stop during a start is carried out once the window opens",
        arguments: [
            (Step.stop(.app), StopReason.requested(by: .app)),
            (Step.stop(.system), StopReason.requested(by: .system)),
            (Step.controllerReleased, StopReason.controllerReleased),
            (Step.contentSourceReplaced(ready: false), StopReason.contentSourceNotReady),
        ])
    func pendingStopReason(step: Step, reason: StopReason) {
        var m = Fixture.starting.make()
        _ = step.apply(to: &m)
        #expect(m.phase == .starting)
        #expect(m.hostDidOpenWindow(current) == [didStart, willStop, close(current, reason)])
        #expect(m.hostDidCloseWindow(current) == [didStop])
        #expect(m.phase == .idle)
    }

    @Test("the first pending stop reason wins")
    func firstPendingReasonWins() {
        var m = Fixture.startingWithPendingStop.make()
        #expect(m.contentSourceReplaced(isReadyForDisplay: false) == [contentChanged, possibleChanged(false)])
        #expect(m.controllerReleased() == [])
        #expect(m.hostDidOpenWindow(current) == [didStart, willStop, close(current, .requested(by: .user))])
    }

    @Test("returning to the foreground during an automatic start stops it once open")
    func foregroundDuringAutomaticStart() {
        var m = Fixture.startingAutomatic.make()
        #expect(m.enteredForeground() == [])
        #expect(m.hostDidOpenWindow(current) == [didStart, willStop, close(current, .returnedToForeground)])
    }

    @Test("a failed open makes a pending stop moot")
    func failedOpenWithPendingStop() {
        var m = Fixture.startingWithPendingStop.make()
        #expect(m.hostFailedToOpen(current, reason: "busy") == [failed(.systemFailed("busy"))])
        #expect(m.phase == .idle)
        #expect(m.hostDidOpenWindow(current) == [], "the late open of a failed session is stale")
        #expect(m.hostDidCloseWindow(current) == [])
    }
}
