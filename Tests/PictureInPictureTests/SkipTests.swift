import PictureInPicture
import Testing

@Suite("Skips from the window")
struct SkipTests {
    func request(_ id: UInt64, _ interval: Duration, _ session: SessionID = current) -> Action {
        .seek(SkipRequest(id: SkipRequestID(rawValue: id), session: session, interval: interval))
    }

    @Test("linear playback blocks skips without consuming identifiers")
    func linearPlayback() {
        var m = Fixture.active.make()
        #expect(m.canSkip)
        #expect(m.userSkipped(by: .seconds(10)) == [request(1, .seconds(10))])
        m.requiresLinearPlayback = true
        #expect(!m.canSkip)
        #expect(m.userSkipped(by: .seconds(10)) == [])
        #expect(m.userSkipped(by: .seconds(-10)) == [])
        m.requiresLinearPlayback = false
        #expect(m.userSkipped(by: .seconds(-10)) == [request(2, .seconds(-10))])
    }

    @Test("linear playback can be required from the start")
    func linearFromInit() throws {
        var m = Machine(profile: .macOS, preconditions: possible, requiresLinearPlayback: true)
        _ = try m.startRequested(preconditions: possible)
        _ = m.hostDidOpenWindow(SessionID(rawValue: 1))
        #expect(m.userSkipped(by: .seconds(30)) == [])
    }

    @Test("identifiers stay unique across sessions")
    func uniqueAcrossSessions() throws {
        var m = Fixture.active.make()
        var ids: [SkipRequestID] = []
        func collect(_ actions: [Action]) {
            for case .seek(let r) in actions { ids.append(r.id) }
        }
        for _ in 0..<5 { collect(m.userSkipped(by: .milliseconds(500))) }
        _ = m.stopRequested(by: .app)
        collect(m.userSkipped(by: .seconds(1)))
        _ = m.hostDidCloseWindow(current)
        _ = try m.startRequested(preconditions: possible)
        let next = try #require(m.currentSession)
        _ = m.hostDidOpenWindow(next)
        #expect(m.userSkipped(by: .seconds(1)) == [request(6, .seconds(1), next)])
        #expect(ids.map(\.rawValue) == [1, 2, 3, 4, 5])
    }

    @Test("no skips unless the window is visible, and no zero skips")
    func onlyWhenVisible() {
        for fixture in Fixture.allCases where fixture != .active && fixture != .activeAutomatic {
            var m = fixture.make()
            #expect(!m.canSkip, "\(fixture)")
            #expect(m.userSkipped(by: .seconds(5)) == [], "\(fixture)")
        }
        var m = Fixture.active.make()
        #expect(m.userSkipped(by: .zero) == [])
        #expect(m.userSkipped(by: .seconds(5)) == [request(1, .seconds(5))])
    }
}
