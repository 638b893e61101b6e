import PictureInPicture

/// Every event of ``PictureInPictureStateMachine`` as data, so tests can list,
/// tabulate and randomise them.
enum Step: Hashable, CustomStringConvertible {
    case start(PictureInPicturePreconditions)
    case hostOpened(SessionID)
    case hostFailed(SessionID)
    case stop(StopRequester)
    case hostClosed(SessionID)
    case restoreTapped
    case restoreCompleted(Bool, SessionID)
    case restoreTimedOut(SessionID)
    case suspend
    case resume
    case appTerminated
    case contentSourceReplaced(ready: Bool)
    case controllerReleased
    case preconditionsChanged(PictureInPicturePreconditions)
    case enteredBackground(isPlaying: Bool, canStartAutomatically: Bool, PictureInPicturePreconditions)
    case enteredForeground
    case skip(Duration)
    case setLinearPlayback(Bool)

    /// Feeds the step to `machine`; a thrown misuse error becomes `.failure`.
    func apply(
        to machine: inout PictureInPictureStateMachine
    ) -> Result<[PictureInPictureAction], PictureInPictureError> {
        switch self {
        case .start(let p):
            do { return .success(try machine.startRequested(preconditions: p)) } catch { return .failure(error) }
        case .hostOpened(let s): return .success(machine.hostDidOpenWindow(s))
        case .hostFailed(let s): return .success(machine.hostFailedToOpen(s, reason: "host said no"))
        case .stop(let r): return .success(machine.stopRequested(by: r))
        case .hostClosed(let s): return .success(machine.hostDidCloseWindow(s))
        case .restoreTapped: return .success(machine.restoreTapped())
        case .restoreCompleted(let ok, let s): return .success(machine.restoreCompleted(ok, session: s))
        case .restoreTimedOut(let s): return .success(machine.restoreTimedOut(session: s))
        case .suspend: return .success(machine.suspend())
        case .resume: return .success(machine.resume())
        case .appTerminated: return .success(machine.appTerminated())
        case .contentSourceReplaced(let ready): return .success(machine.contentSourceReplaced(isReadyForDisplay: ready))
        case .controllerReleased: return .success(machine.controllerReleased())
        case .preconditionsChanged(let p): return .success(machine.preconditionsChanged(p))
        case .enteredBackground(let playing, let auto, let p):
            return .success(
                machine.enteredBackground(isPlaying: playing, canStartAutomatically: auto, preconditions: p))
        case .enteredForeground: return .success(machine.enteredForeground())
        case .skip(let d): return .success(machine.userSkipped(by: d))
        case .setLinearPlayback(let on):
            machine.requiresLinearPlayback = on
            return .success([])
        }
    }

    var description: String {
        switch self {
        case .start(let p): return "start(possible: \(p.isPossible))"
        case .hostOpened(let s): return "hostOpened(\(s))"
        case .hostFailed(let s): return "hostFailed(\(s))"
        case .stop(let r): return "stop(\(r))"
        case .hostClosed(let s): return "hostClosed(\(s))"
        case .restoreTapped: return "restoreTapped"
        case .restoreCompleted(let ok, let s): return "restoreCompleted(\(ok), \(s))"
        case .restoreTimedOut(let s): return "restoreTimedOut(\(s))"
        case .suspend: return "suspend"
        case .resume: return "resume"
        case .appTerminated: return "appTerminated"
        case .contentSourceReplaced(let ready): return "contentSourceReplaced(ready: \(ready))"
        case .controllerReleased: return "controllerReleased"
        case .preconditionsChanged(let p): return "preconditionsChanged(possible: \(p.isPossible))"
        case .enteredBackground(let playing, let auto, let p):
            return "enteredBackground(playing: \(playing), auto: \(auto), possible: \(p.isPossible))"
        case .enteredForeground: return "enteredForeground"
        case .skip(let d): return "skip(\(d))"
        case .setLinearPlayback(let on): return "setLinearPlayback(\(on))"
        }
    }
}
