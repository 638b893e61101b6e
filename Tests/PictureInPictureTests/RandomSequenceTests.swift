import PictureInPicture
import PlaybackTesting
import Testing

/// Thousands of seeded random event sequences, checked by ``InvariantChecker``.
///
/// A simulated host keeps the callbacks it owes (`hostDidOpenWindow` or
/// `hostFailedToOpen` for each `openWindow`, `hostDidCloseWindow` for each
/// `closeWindow`, the app's completion or the timer for each restore) and
/// delivers them at random later points, possibly after the session has
/// moved on, possibly twice. Random callbacks for stale and never-issued
/// sessions are mixed in as well.
@Suite("Random sequences")
struct RandomSequenceTests {
    static let seeds: [UInt64] = [0x5EED_0001, 0xC0FF_EE00, 0x1234_5678_9ABC, 42, 0xDEAD_BEEF]
    static let sequencesPerSeed = 1_200
    static let maxLength = 50

    static let preconditionPool: [PictureInPicturePreconditions] = {
        var pool = [possible, possible, possible, inactiveAudio, PictureInPicturePreconditions()]
        var p = possible
        p.audioSession.category = .ambient
        pool.append(p)
        p = possible
        p.isContentSourceReadyForDisplay = false
        pool.append(p)
        return pool
    }()

    /// What one run saw, so the test can prove the generator explored.
    struct Coverage {
        var sequences = 0
        var steps = 0
        var phases: Set<String> = []
        var emitted: Set<String> = []
        var staleIgnored = 0
        var seeks = 0
    }

    @Test("random sequences keep the delegate grammar and never stick", arguments: seeds)
    func randomSequences(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var coverage = Coverage()
        var failures = 0
        for index in 0..<Self.sequencesPerSeed where failures < 3 {
            let profile: HostProfile = rng.chance(50) ? .iOS : .macOS
            if let report = runSequence(&rng, profile: profile, coverage: &coverage) {
                failures += 1
                Issue.record("seed \(seed) sequence \(index) [\(profile)]: \(report)")
            }
        }
        #expect(coverage.sequences == Self.sequencesPerSeed)
        // The generator must actually reach every phase and every delegate event.
        #expect(coverage.phases == Set(Machine.Phase.allCases.map(\.rawValue)))
        #expect(
            coverage.emitted.isSuperset(of: [
                "willStart", "didStart", "failedToStart", "restoreUserInterface", "willStop", "didStop",
                "possibleChanged", "suspendedChanged", "contentSourceChanged",
            ]))
        #expect(coverage.staleIgnored > 100)
        #expect(coverage.seeks > 100)
    }

    /// Runs one sequence; returns a report with the trace on the first violation.
    func runSequence(_ rng: inout SplitMix64, profile: HostProfile, coverage: inout Coverage) -> String? {
        let initial = rng.pick(Self.preconditionPool)
        var m = Machine(profile: profile, preconditions: initial, restoreTimeout: .seconds(2))
        var checker = InvariantChecker(profile: profile, initiallyPossible: initial.isPossible)
        var owed: [Step] = []
        var issued: [SessionID] = []
        var trace: [String] = []
        coverage.sequences += 1

        func feed(_ step: Step, into m: inout Machine, _ checker: inout InvariantChecker) -> [Action] {
            let actions = (try? step.apply(to: &m).get()) ?? []
            checker.observe(actions, machine: m, linear: m.requiresLinearPlayback)
            trace.append("\(step) -> \(actions)")
            return actions
        }

        for _ in 0..<(1 + rng.below(Self.maxLength)) {
            let step: Step
            if !owed.isEmpty && rng.chance(45) {
                let i = rng.below(owed.count)
                step = owed[i]
                if rng.chance(85) { owed.remove(at: i) }  // else: delivered again later
            } else {
                step = randomStep(&rng, machine: m, issued: issued)
            }
            let before = m.currentSession
            let actions = feed(step, into: &m, &checker)
            coverage.steps += 1
            coverage.phases.insert(m.phase.rawValue)
            if step.isHostCallback, before != step.callbackSession {
                // A callback for any session but the current one is stale and must do nothing.
                if actions.isEmpty { coverage.staleIgnored += 1 } else { checker.note("stale \(step) acted") }
            }
            for action in actions {
                switch action {
                case .emit(let event): coverage.emitted.insert(event.name)
                case .openWindow(let s):
                    issued.append(s)
                    owed.append(rng.chance(80) ? .hostOpened(s) : .hostFailed(s))
                case .closeWindow(let s, _): owed.append(.hostClosed(s))
                case .awaitRestoreCompletion(let s, _):
                    owed.append(rng.chance(70) ? .restoreCompleted(rng.chance(75), s) : .restoreTimedOut(s))
                case .seek: coverage.seeks += 1
                default: break
                }
            }
            if !checker.violations.isEmpty { break }
        }
        if checker.violations.isEmpty {
            // Never stuck (a): termination reaches idle at once, legally.
            var terminated = m
            var terminatedChecker = checker
            trace.append("-- appTerminated drain from \(m.phase)")
            _ = feed(.appTerminated, into: &terminated, &terminatedChecker)
            if terminated.phase != .idle || terminatedChecker.phase != .none {
                terminatedChecker.note("appTerminated left \(terminated.phase) / \(terminatedChecker.phase)")
            }
            // Never stuck (b): a cooperative host and app, answering only the
            // current session, reach idle from any phase within a few steps.
            var drained = m
            var drainedChecker = checker
            trace.append("-- cooperative drain from \(m.phase)")
            for _ in 0..<4 {
                guard let s = drained.currentSession else { break }
                let step: Step
                switch drained.phase {
                case .starting: step = .hostOpened(s)
                case .active: step = .stop(.app)
                case .restoring: step = .restoreTimedOut(s)
                case .stopping, .idle: step = .hostClosed(s)
                }
                _ = feed(step, into: &drained, &drainedChecker)
            }
            if drained.phase != .idle || drainedChecker.phase != .none {
                drainedChecker.note("cooperative drain left \(drained.phase) / \(drainedChecker.phase)")
            }
            checker = drainedChecker
        }
        return checker.violations.isEmpty ? nil : (checker.violations + ["trace:"] + trace).joined(separator: "\n  ")
    }

    func randomStep(_ rng: inout SplitMix64, machine: Machine, issued: [SessionID]) -> Step {
        func session() -> SessionID {
            let roll = rng.below(10)
            if roll < 5, let c = machine.currentSession { return c }
            if roll < 9, !issued.isEmpty { return rng.pick(issued) }
            return SessionID(rawValue: UInt64(issued.count + 1 + rng.below(3)))  // never issued
        }
        switch rng.below(20) {
        case 0, 1: return .start(rng.pick(Self.preconditionPool))
        case 2: return .hostOpened(session())
        case 3: return .hostFailed(session())
        case 4: return .stop(rng.pick(StopRequester.allCases))
        case 5: return .hostClosed(session())
        case 6: return .restoreTapped
        case 7: return rng.chance(50) ? .restoreCompleted(rng.chance(50), session()) : .restoreTimedOut(session())
        case 8: return .suspend
        case 9: return .resume
        case 10: return rng.chance(25) ? .appTerminated : .controllerReleased
        case 11: return .contentSourceReplaced(ready: rng.chance(60))
        case 12: return .preconditionsChanged(rng.pick(Self.preconditionPool))
        case 13:
            return .enteredBackground(
                isPlaying: rng.chance(80), canStartAutomatically: rng.chance(80),
                rng.pick(Self.preconditionPool))
        case 14: return .enteredForeground
        case 15: return .setLinearPlayback(rng.chance(30))
        default: return .skip(.seconds(rng.pick([-30, -10, 0, 10, 30])))
        }
    }
}

extension Step {
    var isHostCallback: Bool { callbackSession != nil }

    var callbackSession: SessionID? {
        switch self {
        case .hostOpened(let s), .hostFailed(let s), .hostClosed(let s),
            .restoreCompleted(_, let s), .restoreTimedOut(let s):
            return s
        default: return nil
        }
    }
}

extension PictureInPictureEvent {
    /// The case name, for coverage counting.
    var name: String {
        switch self {
        case .willStart: return "willStart"
        case .didStart: return "didStart"
        case .failedToStart: return "failedToStart"
        case .restoreUserInterface: return "restoreUserInterface"
        case .willStop: return "willStop"
        case .didStop: return "didStop"
        case .possibleChanged: return "possibleChanged"
        case .suspendedChanged: return "suspendedChanged"
        case .contentSourceChanged: return "contentSourceChanged"
        }
    }
}
