import PictureInPicture

typealias Machine = PictureInPictureStateMachine
typealias Action = PictureInPictureAction

/// Every fixture first runs one complete session (#1), so the session under
/// test is #2 and #1 is a genuinely stale identifier.
let stale = SessionID(rawValue: 1)
let current = SessionID(rawValue: 2)
let timeout = Duration.seconds(3)

let possible = PictureInPicturePreconditions.allSatisfied
/// Possible except for one thing: the audio session is not active.
let inactiveAudio = PictureInPicturePreconditions(
    isSupportedByHost: true,
    audioSession: AudioSession(category: .playback, isActive: false),
    hasBackgroundAudioCapability: true,
    isContentSourceReadyForDisplay: true
)

/// Builds machines in each state the matrix tests, by driving the public API only.
enum Fixture: String, CaseIterable, CustomStringConvertible {
    case idle
    case starting
    case startingWithPendingStop
    case startingAutomatic
    case active
    case activeAutomatic
    case activeSuspended
    case restoring
    case stopping

    var description: String { rawValue }

    func make(_ profile: HostProfile = .iOS) -> Machine {
        var m = Machine(profile: profile, preconditions: possible, restoreTimeout: timeout)
        m.mustStart()
        _ = m.hostDidOpenWindow(stale)
        _ = m.stopRequested(by: .app)
        _ = m.hostDidCloseWindow(stale)
        precondition(m.phase == .idle)
        switch self {
        case .idle:
            break
        case .starting:
            m.mustStart()
        case .startingWithPendingStop:
            m.mustStart()
            _ = m.stopRequested(by: .user)
        case .startingAutomatic:
            _ = m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: possible)
        case .active:
            m.mustStart()
            _ = m.hostDidOpenWindow(current)
        case .activeAutomatic:
            _ = m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: possible)
            _ = m.hostDidOpenWindow(current)
        case .activeSuspended:
            m.mustStart()
            _ = m.hostDidOpenWindow(current)
            _ = m.suspend()
        case .restoring:
            m.mustStart()
            _ = m.hostDidOpenWindow(current)
            _ = m.restoreTapped()
        case .stopping:
            m.mustStart()
            _ = m.hostDidOpenWindow(current)
            _ = m.stopRequested(by: .app)
        }
        return m
    }
}

extension PictureInPictureStateMachine {
    /// For fixture set-up only: a start that must not throw.
    mutating func mustStart() {
        do { _ = try startRequested(preconditions: possible) } catch {
            preconditionFailure("fixture start threw \(error)")
        }
    }
}

// Short spellings for expected actions.
let willStart = Action.emit(.willStart)
let didStart = Action.emit(.didStart)
let willStop = Action.emit(.willStop)
let didStop = Action.emit(.didStop)
let restoreUI = Action.emit(.restoreUserInterface)
let contentChanged = Action.emit(.contentSourceChanged)
func failed(_ e: PictureInPictureError) -> Action { .emit(.failedToStart(e)) }
func possibleChanged(_ b: Bool) -> Action { .emit(.possibleChanged(b)) }
func suspendedChanged(_ b: Bool) -> Action { .emit(.suspendedChanged(b)) }
func close(_ s: SessionID, _ r: StopReason) -> Action { .closeWindow(s, r) }
func awaitRestore(_ s: SessionID) -> Action { .awaitRestoreCompletion(s, timeout: timeout) }
