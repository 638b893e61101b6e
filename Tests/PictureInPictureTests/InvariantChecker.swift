import PictureInPicture

/// Watches every action a machine emits and reports any break of the
/// session grammar documented on ``PictureInPictureEvent``:
///
/// - `willStart` only when no session is open (one session at a time), and
///   immediately followed by `openWindow` with a never-seen, larger ``SessionID``;
/// - `didStart` or `failedToStart` only after `willStart`; a lone
///   `failedToStart` only with no session open;
/// - `willStop` only after `didStart`; `didStop` only after `willStop`;
/// - `restoreUserInterface` at most once, before `willStop` on iOS and after
///   it on macOS, immediately followed by `awaitRestoreCompletion`;
/// - `suspendedChanged` only between `didStart` and `willStop`, alternating;
/// - window actions only for the open session, never for a retired one;
///   `closeWindow` at most once per session;
/// - `possibleChanged` only on real flips; each seek id exactly once, only from
///   a visible window with linear playback off;
/// - the machine's observable properties agree with the grammar.
struct InvariantChecker {
    enum Phase: Equatable {
        case none
        case willStarted(SessionID)
        case started(SessionID)
        case stopAnnounced(SessionID)
    }

    let profile: HostProfile
    private(set) var phase: Phase = .none
    private var suspended = false
    private var restoreAsked = false
    private var closeRequested = false
    private var possible: Bool
    private var newestSession = SessionID(rawValue: 0)
    private var retired: Set<SessionID> = []
    private(set) var seekIDs: Set<SkipRequestID> = []
    private(set) var violations: [String] = []

    init(profile: HostProfile, initiallyPossible: Bool) {
        self.profile = profile
        possible = initiallyPossible
    }

    private var session: SessionID? {
        switch phase {
        case .none: return nil
        case .willStarted(let s), .started(let s), .stopAnnounced(let s): return s
        }
    }

    private mutating func fail(_ message: String) { violations.append(message) }

    /// Records a violation found by the test itself (for example, a stuck machine).
    mutating func note(_ message: String) { fail(message) }

    private mutating func retire(_ s: SessionID) {
        retired.insert(s)
        phase = .none
        suspended = false
        restoreAsked = false
        closeRequested = false
    }

    /// Checks one batch of actions (the result of one event) and then the
    /// machine's observable state. `linear` is `requiresLinearPlayback` at the time.
    mutating func observe(_ actions: [PictureInPictureAction], machine: PictureInPictureStateMachine, linear: Bool) {
        for (i, action) in actions.enumerated() {
            let next = i + 1 < actions.count ? actions[i + 1] : nil
            check(action, next: next, linear: linear)
        }
        if machine.currentSession != session {
            fail("currentSession \(String(describing: machine.currentSession)) vs \(phase)")
        }
        if machine.isSuspended != suspended { fail("isSuspended \(machine.isSuspended) vs \(suspended)") }
        if machine.isPossible != possible { fail("isPossible \(machine.isPossible) without possibleChanged") }
        let active: Bool
        switch phase {
        case .started, .stopAnnounced: active = true
        case .none, .willStarted: active = false
        }
        if machine.isActive != active { fail("isActive \(machine.isActive) vs \(phase)") }
        if machine.canSkip && (linear || suspended || !active) { fail("canSkip while it must not") }
    }

    private mutating func check(_ action: PictureInPictureAction, next: PictureInPictureAction?, linear: Bool) {
        if let s = action.session, retired.contains(s) { fail("\(action) for retired \(s)") }
        switch action {
        case .emit(.willStart):
            guard phase == .none else { return fail("willStart while \(phase)") }
            guard case .openWindow(let s)? = next, s > newestSession else {
                return fail("willStart not followed by openWindow of a fresh session: \(String(describing: next))")
            }
            newestSession = s
            phase = .willStarted(s)
        case .openWindow(let s):
            if phase != .willStarted(s) { fail("openWindow(\(s)) while \(phase)") }
        case .emit(.didStart):
            guard case .willStarted(let s) = phase else { return fail("didStart while \(phase)") }
            phase = .started(s)
        case .emit(.failedToStart):
            switch phase {
            case .none: break
            case .willStarted(let s): retire(s)
            default: fail("failedToStart while \(phase)")
            }
        case .emit(.restoreUserInterface):
            let legal: Bool
            switch phase {
            case .started: legal = profile == .iOS
            case .stopAnnounced: legal = profile == .macOS
            default: legal = false
            }
            if !legal || restoreAsked { fail("restoreUserInterface while \(phase) on \(profile)") }
            restoreAsked = true
            guard case .awaitRestoreCompletion(let s, _)? = next, s == session else {
                return fail("restoreUserInterface not followed by awaitRestoreCompletion")
            }
        case .emit(.willStop):
            guard case .started(let s) = phase else { return fail("willStop while \(phase)") }
            if suspended { fail("willStop while still suspended") }
            phase = .stopAnnounced(s)
        case .emit(.didStop):
            guard case .stopAnnounced(let s) = phase else { return fail("didStop while \(phase)") }
            retire(s)
        case .emit(.suspendedChanged(let value)):
            guard case .started = phase else { return fail("suspendedChanged while \(phase)") }
            if value == suspended { fail("suspendedChanged(\(value)) repeated") }
            suspended = value
        case .emit(.possibleChanged(let value)):
            if value == possible { fail("possibleChanged(\(value)) without a flip") }
            possible = value
        case .emit(.contentSourceChanged):
            break
        case .closeWindow(let s, _):
            if s != session { fail("closeWindow(\(s)) while \(phase)") }
            if closeRequested { fail("closeWindow(\(s)) twice") }
            closeRequested = true
        case .hideWindow(let s), .showWindow(let s):
            if phase != .started(s) { fail("\(action) while \(phase)") }
        case .awaitRestoreCompletion(let s, _), .restoreFailed(let s, _):
            if s != session || !restoreAsked { fail("\(action) while \(phase), restoreAsked \(restoreAsked)") }
        case .seek(let request):
            if !seekIDs.insert(request.id).inserted { fail("seek id \(request.id) emitted twice") }
            if phase != .started(request.session) || suspended || linear { fail("seek while \(phase)") }
        }
    }
}

extension PictureInPictureAction {
    /// The session a window action names, if any.
    var session: SessionID? {
        switch self {
        case .emit: return nil
        case .openWindow(let s), .closeWindow(let s, _), .hideWindow(let s), .showWindow(let s),
            .awaitRestoreCompletion(let s, _), .restoreFailed(let s, _):
            return s
        case .seek(let r): return r.session
        }
    }
}
