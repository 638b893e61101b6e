import PictureInPicture
import Testing

/// Session identity, stale callbacks, termination, release and content changes.
@Suite("Session lifecycle")
struct LifecycleTests {
    @Test("a plain session: willStart, didStart, willStop, didStop")
    func plainSession() throws {
        var m = Machine(profile: .iOS, preconditions: possible)
        let first = SessionID(rawValue: 1)
        #expect(try m.startRequested(preconditions: possible) == [willStart, .openWindow(first)])
        #expect(!m.isActive && m.currentSession == first)
        #expect(m.hostDidOpenWindow(first) == [didStart])
        #expect(m.isActive)
        #expect(m.stopRequested(by: .user) == [willStop, close(first, .requested(by: .user))])
        #expect(m.isActive && m.phase == .stopping)
        #expect(m.hostDidCloseWindow(first) == [didStop])
        #expect(!m.isActive && m.currentSession == nil)
    }

    @Test("session identifiers increase, including for sessions the host refused")
    func generations() throws {
        var m = Machine(profile: .macOS, preconditions: possible)
        var seen: [SessionID] = []
        for round in 0..<6 {
            _ = try m.startRequested(preconditions: possible)
            let s = try #require(m.currentSession)
            seen.append(s)
            if round.isMultiple(of: 2) {
                _ = m.hostFailedToOpen(s, reason: "no")
            } else {
                _ = m.appTerminated()
            }
        }
        #expect(seen.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
        #expect(seen == seen.sorted() && Set(seen).count == seen.count)
    }

    @Test("after termination every callback for the old session is ignored")
    func staleAfterTermination() throws {
        var m = Fixture.starting.make()
        #expect(m.appTerminated() == [close(current, .appTerminated), failed(.startCancelled)])
        _ = try m.startRequested(preconditions: possible)
        let next = try #require(m.currentSession)
        #expect(m.hostDidOpenWindow(current) == [], "the terminated session's open is stale")
        #expect(m.hostFailedToOpen(current, reason: "late") == [])
        #expect(m.hostDidCloseWindow(current) == [])
        #expect(m.phase == .starting && m.currentSession == next)
        #expect(m.hostDidOpenWindow(next) == [didStart])
    }

    @Test("release is permanent but lets a running session stop cleanly")
    func release() throws {
        var m = Fixture.active.make(.iOS)
        #expect(m.controllerReleased() == [willStop, close(current, .controllerReleased)])
        #expect(m.isReleased)
        #expect(m.controllerReleased() == [])
        #expect(m.hostDidCloseWindow(current) == [didStop])
        #expect(throws: PictureInPictureError.controllerReleased) { try m.startRequested(preconditions: possible) }
        #expect(m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: possible) == [])
        #expect(m.phase == .idle)
    }

    @Test("misuse throws a typed error and changes nothing")
    func misuse() throws {
        var m = Fixture.starting.make()
        #expect(throws: PictureInPictureError.startInProgress) { try m.startRequested(preconditions: inactiveAudio) }
        #expect(m.isPossible, "a refused call does not record its preconditions")
        _ = m.hostDidOpenWindow(current)
        #expect(throws: PictureInPictureError.alreadyActive) { try m.startRequested(preconditions: possible) }
        _ = m.suspend()
        #expect(throws: PictureInPictureError.suspended) { try m.startRequested(preconditions: possible) }
        #expect(m.phase == .active && m.isSuspended && m.currentSession == current)
    }

    @Test("a ready replacement content source keeps the session", arguments: HostProfile.allCases)
    func readyContentKeepsSession(profile: HostProfile) {
        var m = Fixture.active.make(profile)
        for _ in 0..<3 {
            #expect(m.contentSourceReplaced(isReadyForDisplay: true) == [contentChanged])
        }
        #expect(m.phase == .active && m.currentSession == current)
        #expect(m.stopRequested(by: .app) == [willStop, close(current, .requested(by: .app))])
    }

    @Test("a not-ready replacement stops the session, and didStop follows the close")
    func notReadyContentStops() {
        var m = Fixture.active.make()
        #expect(
            m.contentSourceReplaced(isReadyForDisplay: false)
                == [contentChanged, possibleChanged(false), willStop, close(current, .contentSourceNotReady)])
        #expect(m.hostDidCloseWindow(current) == [didStop])
        #expect(!m.isPossible)
    }

    @Test("the host closing an open window on its own ends the session")
    func unexpectedClose() {
        var m = Fixture.activeSuspended.make()
        #expect(m.hostDidCloseWindow(current) == [suspendedChanged(false), willStop, didStop])
        #expect(m.hostDidCloseWindow(current) == [])
        #expect(m.phase == .idle)
    }

    @Test("an automatic session starts only when playing, allowed, possible and idle")
    func automaticStart() throws {
        var m = Fixture.idle.make()
        #expect(m.enteredBackground(isPlaying: true, canStartAutomatically: false, preconditions: possible) == [])
        #expect(m.enteredBackground(isPlaying: false, canStartAutomatically: true, preconditions: possible) == [])
        #expect(
            m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: possible)
                == [willStart, .openWindow(current)])
        #expect(m.enteredBackground(isPlaying: true, canStartAutomatically: true, preconditions: possible) == [])
    }

    @Test("a manually started session survives returning to the foreground")
    func manualSessionStaysInForeground() {
        var m = Fixture.active.make()
        #expect(m.enteredForeground() == [])
        #expect(m.phase == .active)
    }
}
