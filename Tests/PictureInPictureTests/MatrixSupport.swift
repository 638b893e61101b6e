import PictureInPicture
import Testing

/// The events of the state × event matrix. Host callbacks come in two
/// flavours: for the session under test (``current``) and stale (``stale``).
enum MatrixEvent: String, CaseIterable, CustomStringConvertible {
    case startPossible, startImpossible
    case hostOpened, hostOpenedStale, hostFailed, hostFailedStale
    case stopApp, stopUser, stopSystem
    case hostClosed, hostClosedStale
    case restoreTapped
    case restoreCompletedTrue, restoreCompletedFalse, restoreCompletedStale
    case restoreTimedOut, restoreTimedOutStale
    case suspend, resume
    case appTerminated
    case contentReady, contentNotReady
    case controllerReleased
    case preconditionsFlip, preconditionsSame
    case backgroundAutoStart, backgroundNotPlaying, foreground
    case skip, skipWhileLinear

    var description: String { rawValue }

    /// The steps to apply; only the last step's result is checked.
    var steps: [Step] {
        switch self {
        case .startPossible: return [.start(possible)]
        case .startImpossible: return [.start(inactiveAudio)]
        case .hostOpened: return [.hostOpened(current)]
        case .hostOpenedStale: return [.hostOpened(stale)]
        case .hostFailed: return [.hostFailed(current)]
        case .hostFailedStale: return [.hostFailed(stale)]
        case .stopApp: return [.stop(.app)]
        case .stopUser: return [.stop(.user)]
        case .stopSystem: return [.stop(.system)]
        case .hostClosed: return [.hostClosed(current)]
        case .hostClosedStale: return [.hostClosed(stale)]
        case .restoreTapped: return [.restoreTapped]
        case .restoreCompletedTrue: return [.restoreCompleted(true, current)]
        case .restoreCompletedFalse: return [.restoreCompleted(false, current)]
        case .restoreCompletedStale: return [.restoreCompleted(true, stale)]
        case .restoreTimedOut: return [.restoreTimedOut(current)]
        case .restoreTimedOutStale: return [.restoreTimedOut(stale)]
        case .suspend: return [.suspend]
        case .resume: return [.resume]
        case .appTerminated: return [.appTerminated]
        case .contentReady: return [.contentSourceReplaced(ready: true)]
        case .contentNotReady: return [.contentSourceReplaced(ready: false)]
        case .controllerReleased: return [.controllerReleased]
        case .preconditionsFlip: return [.preconditionsChanged(PictureInPicturePreconditions())]
        case .preconditionsSame: return [.preconditionsChanged(possible)]
        case .backgroundAutoStart:
            return [.enteredBackground(isPlaying: true, canStartAutomatically: true, possible)]
        case .backgroundNotPlaying:
            return [.enteredBackground(isPlaying: false, canStartAutomatically: true, possible)]
        case .foreground: return [.enteredForeground]
        case .skip: return [.skip(.seconds(15))]
        case .skipWhileLinear: return [.setLinearPlayback(true), .skip(.seconds(15))]
        }
    }
}

/// What one cell of the matrix expects.
enum Outcome {
    /// Exactly these actions, leaving the machine in this phase.
    case actions([Action], Machine.Phase)
    /// A thrown misuse error, leaving the machine untouched.
    case misuse(PictureInPictureError)
}

func none(_ phase: Machine.Phase) -> Outcome { .actions([], phase) }

/// Drives `fixture` (built for `profile`) with `event` and checks `outcome`.
func verify(
    _ fixture: Fixture, _ profile: HostProfile, _ event: MatrixEvent, _ outcome: Outcome,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var m = fixture.make(profile)
    let before = (m.phase, m.currentSession, m.isSuspended, m.isPossible)
    var result: Result<[Action], PictureInPictureError> = .success([])
    for step in event.steps { result = step.apply(to: &m) }
    switch outcome {
    case .actions(let expected, let phase):
        #expect(result == .success(expected), "\(fixture) × \(event) [\(profile)]", sourceLocation: sourceLocation)
        #expect(m.phase == phase, "\(fixture) × \(event) [\(profile)]", sourceLocation: sourceLocation)
        #expect(m.currentSession == (phase == .idle ? nil : current), sourceLocation: sourceLocation)
        #expect(m.isActive == [.active, .restoring, .stopping].contains(phase), sourceLocation: sourceLocation)
    case .misuse(let error):
        #expect(result == .failure(error), "\(fixture) × \(event) [\(profile)]", sourceLocation: sourceLocation)
        let after = (m.phase, m.currentSession, m.isSuspended, m.isPossible)
        #expect(after == before, "a thrown error must not change the machine", sourceLocation: sourceLocation)
    }
}
