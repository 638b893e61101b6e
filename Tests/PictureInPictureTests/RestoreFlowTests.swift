import PictureInPicture
import Testing

/// Whole restore flows, start to `didStop`, per host profile.
@Suite("Restore flows")
struct RestoreFlowTests {
    /// Runs `steps` from the restoring fixture and returns all actions in order.
    func run(_ profile: HostProfile, _ steps: [Step]) -> (actions: [Action], machine: Machine) {
        var m = Fixture.active.make(profile)
        var all: [Action] = []
        for step in [.restoreTapped] + steps {
            if case .success(let actions) = step.apply(to: &m) { all += actions }
        }
        return (all, m)
    }

    @Test("iOS: restoreUserInterface, completion, willStop, didStop")
    func iOSOrder() {
        let (actions, m) = run(.iOS, [.restoreCompleted(true, current), .hostClosed(current)])
        #expect(actions == [restoreUI, awaitRestore(current), willStop, close(current, .restore), didStop])
        #expect(m.phase == .idle)
    }

    @Test("macOS: willStop, restoreUserInterface, completion, didStop")
    func macOSOrder() {
        let (actions, m) = run(.macOS, [.restoreCompleted(true, current), .hostClosed(current)])
        #expect(actions == [willStop, restoreUI, awaitRestore(current), close(current, .restore), didStop])
        #expect(m.phase == .idle)
    }

    @Test("nothing closes before the app completes", arguments: HostProfile.allCases)
    func waitsForCompletion(profile: HostProfile) {
        var m = Fixture.restoring.make(profile)
        for _ in 0..<3 {
            #expect(m.restoreTapped() == [])
            #expect(m.hostDidOpenWindow(current) == [])
        }
        #expect(m.phase == .restoring && m.isActive)
    }

    @Test("completing with false still stops, and says so")
    func declined() {
        let iOS = run(.iOS, [.restoreCompleted(false, current), .hostClosed(current)]).actions
        #expect(
            iOS == [
                restoreUI, awaitRestore(current), .restoreFailed(current, .declinedByApp),
                willStop, close(current, .restore), didStop,
            ])
        let macOS = run(.macOS, [.restoreCompleted(false, current), .hostClosed(current)]).actions
        #expect(
            macOS == [
                willStop, restoreUI, awaitRestore(current), .restoreFailed(current, .declinedByApp),
                close(current, .restore), didStop,
            ])
    }

    @Test("a timeout stops the session; the late completion is ignored")
    func timedOut() {
        let steps: [Step] = [
            .restoreTimedOut(current), .restoreCompleted(true, current), .hostClosed(current),
            .restoreCompleted(true, current),
        ]
        let iOS = run(.iOS, steps).actions
        #expect(
            iOS == [
                restoreUI, awaitRestore(current), .restoreFailed(current, .timedOut),
                willStop, close(current, .restore), didStop,
            ])
        let macOS = run(.macOS, steps).actions
        #expect(
            macOS == [
                willStop, restoreUI, awaitRestore(current), .restoreFailed(current, .timedOut),
                close(current, .restore), didStop,
            ])
    }

    @Test("a timer that fires after the completion is ignored", arguments: HostProfile.allCases)
    func timerAfterCompletion(profile: HostProfile) {
        var m = Fixture.restoring.make(profile)
        _ = m.restoreCompleted(true, session: current)
        #expect(m.restoreTimedOut(session: current) == [])
        #expect(m.hostDidCloseWindow(current) == [didStop])
        #expect(m.restoreTimedOut(session: current) == [])
    }

    @Test("the restore timeout is configurable and echoed to the driver")
    func configurableTimeout() throws {
        var m = Machine(profile: .iOS, preconditions: possible, restoreTimeout: .milliseconds(750))
        #expect(m.restoreTimeout == .milliseconds(750))
        _ = try m.startRequested(preconditions: possible)
        let s = try #require(m.currentSession)
        _ = m.hostDidOpenWindow(s)
        #expect(m.restoreTapped() == [restoreUI, .awaitRestoreCompletion(s, timeout: .milliseconds(750))])
    }

    @Test("a completion meant for an earlier session does not finish the current restore")
    func staleCompletion() throws {
        var m = Fixture.active.make(.iOS)
        _ = m.restoreTapped()
        _ = m.restoreTimedOut(session: current)
        _ = m.hostDidCloseWindow(current)
        _ = try m.startRequested(preconditions: possible)
        let next = try #require(m.currentSession)
        #expect(next == current.next)
        _ = m.hostDidOpenWindow(next)
        _ = m.restoreTapped()
        #expect(m.restoreCompleted(true, session: current) == [])
        #expect(m.restoreTimedOut(session: current) == [])
        #expect(m.phase == .restoring)
        #expect(m.restoreCompleted(true, session: next) == [willStop, close(next, .restore)])
    }

    @Test("returning to the foreground restores an automatic session", arguments: HostProfile.allCases)
    func foregroundRestores(profile: HostProfile) {
        var m = Fixture.activeAutomatic.make(profile)
        _ = m.suspend()
        let expected =
            [suspendedChanged(false)] + (profile == .macOS ? [willStop] : [])
            + [restoreUI, awaitRestore(current)]
        #expect(m.enteredForeground() == expected)
        #expect(m.enteredForeground() == [])
        #expect(!m.isSuspended && m.phase == .restoring)
    }
}
