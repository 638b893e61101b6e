import PictureInPicture
import Testing

/// State × event matrix for the two closing states.
@Suite("Matrix: restoring and stopping")
struct RestoringAndStoppingMatrixTests {
    @Test("restoring × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func restoring(profile: HostProfile, event: MatrixEvent) {
        // iOS has not announced the stop yet; macOS did so before restoreUserInterface.
        let w = profile == .iOS ? [willStop] : []
        let interrupted = Action.restoreFailed(current, .interrupted)
        let outcome: Outcome
        switch event {
        case .startPossible, .startImpossible:
            outcome = .misuse(.alreadyActive)
        case .stopApp:
            outcome = .actions([interrupted] + w + [close(current, .requested(by: .app))], .stopping)
        case .stopUser:
            outcome = .actions([interrupted] + w + [close(current, .requested(by: .user))], .stopping)
        case .stopSystem:
            outcome = .actions([interrupted] + w + [close(current, .requested(by: .system))], .stopping)
        case .hostClosed:
            outcome = .actions([interrupted] + w + [didStop], .idle)
        case .restoreCompletedTrue:
            outcome = .actions(w + [close(current, .restore)], .stopping)
        case .restoreCompletedFalse:
            outcome = .actions([.restoreFailed(current, .declinedByApp)] + w + [close(current, .restore)], .stopping)
        case .restoreTimedOut:
            outcome = .actions([.restoreFailed(current, .timedOut)] + w + [close(current, .restore)], .stopping)
        case .appTerminated:
            outcome = .actions([interrupted] + w + [close(current, .appTerminated), didStop], .idle)
        case .contentReady:
            outcome = .actions([contentChanged], .restoring)
        case .contentNotReady:
            outcome = .actions(
                [contentChanged, possibleChanged(false), interrupted] + w
                    + [close(current, .contentSourceNotReady)], .stopping)
        case .controllerReleased:
            outcome = .actions([interrupted] + w + [close(current, .controllerReleased)], .stopping)
        case .preconditionsFlip:
            outcome = .actions([possibleChanged(false)], .restoring)
        case .hostOpened, .hostOpenedStale, .hostFailed, .hostFailedStale, .hostClosedStale,
            .restoreTapped, .restoreCompletedStale, .restoreTimedOutStale, .suspend, .resume,
            .preconditionsSame, .backgroundAutoStart, .backgroundNotPlaying, .foreground,
            .skip, .skipWhileLinear:
            outcome = none(.restoring)
        }
        verify(.restoring, profile, event, outcome)
    }

    @Test("stopping × every event", arguments: HostProfile.allCases, MatrixEvent.allCases)
    func stopping(profile: HostProfile, event: MatrixEvent) {
        let outcome: Outcome
        switch event {
        case .startPossible, .startImpossible:
            outcome = .misuse(.alreadyActive)
        case .hostClosed, .appTerminated:
            outcome = .actions([didStop], .idle)
        case .contentReady:
            outcome = .actions([contentChanged], .stopping)
        case .contentNotReady:
            outcome = .actions([contentChanged, possibleChanged(false)], .stopping)
        case .preconditionsFlip:
            outcome = .actions([possibleChanged(false)], .stopping)
        case .hostOpened, .hostOpenedStale, .hostFailed, .hostFailedStale,
            .stopApp, .stopUser, .stopSystem, .hostClosedStale,
            .restoreTapped, .restoreCompletedTrue, .restoreCompletedFalse, .restoreCompletedStale,
            .restoreTimedOut, .restoreTimedOutStale, .suspend, .resume, .controllerReleased,
            .preconditionsSame, .backgroundAutoStart, .backgroundNotPlaying, .foreground,
            .skip, .skipWhileLinear:
            outcome = none(.stopping)
        }
        verify(.stopping, profile, event, outcome)
    }
}
