#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child's timeout: at the deadline SIGTERM, one second later SIGKILL, one second after that the runner stops
/// reading its output. The child is reaped only after all this, so its pid cannot have been reused when signalled.
struct Deadline {
    /// What the runner should do after a step.
    enum Step: Equatable {
        case keepGoing
        /// Stop waiting for the output streams to close (a grandchild may hold them).
        case stopReading
    }

    private let pid: pid_t
    /// When the next step is due, in `ProcessRunner.monotonicSeconds()`.
    private var nextStep: Double
    /// Steps taken: 0 none, 1 SIGTERM sent, 2 SIGKILL sent, 3 gave up reading.
    private var stepsTaken = 0

    init(pid: pid_t, at time: Double) {
        self.pid = pid
        nextStep = time
    }

    /// Whether the deadline passed (the child was told to end).
    var hasExpired: Bool { stepsTaken > 0 }

    /// Milliseconds until the next step is due (0 when it is), for `poll`; -1 when no step is left.
    func millisecondsToNextStep() -> Int32 {
        guard stepsTaken < 3 else { return -1 }
        let remaining = nextStep - ProcessRunner.monotonicSeconds()
        return remaining <= 0 ? 0 : Int32(min((remaining * 1000).rounded(.up), 60_000))
    }

    /// Takes the step that is due, if one is.
    mutating func takeStepIfDue() -> Step {
        guard stepsTaken < 3, ProcessRunner.monotonicSeconds() >= nextStep else {
            return stepsTaken >= 3 ? .stopReading : .keepGoing
        }
        stepsTaken += 1
        nextStep += 1
        switch stepsTaken {
        case 1: kill(pid, SIGTERM)
        case 2: kill(pid, SIGKILL)
        default: return .stopReading
        }
        return .keepGoing
    }
}
