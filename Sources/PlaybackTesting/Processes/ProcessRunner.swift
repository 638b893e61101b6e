import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Spawns a program with `posix_spawn`, collects what it prints, waits for it with `wait4`, and reports how it ended,
/// its wall and CPU time and its peak memory: for tests that run an executable, and for benchmarks that time one.
///
/// Promises:
/// - The child's standard input is `/dev/null`; its standard output and standard error are each discarded (to
///   `/dev/null`), captured, or inherited from this process. Both captured streams are read together until they
///   close, so a child that fills one while the other is being read never blocks.
/// - The descriptors the runner opens are close-on-exec: a child another thread spawns meanwhile does not inherit
///   them (and so cannot keep a capture open).
/// - Without a timeout the runner blocks in `wait4`, adding nothing to the measured wall time. With one, it sends
///   SIGTERM when the time is up, SIGKILL one second later, stops reading a second after that (in case a grandchild
///   keeps the pipes open), and the result says `timedOut`.
/// - It never throws for what the child does (exit status, signal); only when a system call it needs fails.
public enum ProcessRunner {
    /// Where one of the child's output streams goes.
    public enum Stream: Sendable {
        /// To `/dev/null`.
        case discard
        /// Into the result (`ProcessResult.output` or `.errorOutput`).
        case capture
        /// To the same place as this process's stream.
        case inherit
    }

    /// Runs `executable` (a path; see `findExecutable(_:)`) with `arguments` (without the program name) and waits for
    /// it to end, blocking the calling thread.
    /// - Parameters:
    ///   - environment: the child's whole environment; `nil` passes this process's own.
    ///   - timeout: seconds after which the child is told to end (see the type's promises); `nil` waits for ever.
    /// - Throws: `ProcessRunnerError` when a pipe cannot be made, the program cannot be spawned, or waiting fails.
    public static func run(
        _ executable: String, _ arguments: [String], standardOutput: Stream = .discard,
        standardError: Stream = .discard, environment: [String: String]? = nil, timeout: Double? = nil
    ) throws(ProcessRunnerError) -> ProcessResult {
        let child = try ChildProcess.spawn(
            executable, arguments, standardOutput: standardOutput, standardError: standardError,
            environment: environment)
        var deadline = timeout.map { Deadline(pid: child.pid, at: child.start + $0) }
        let (output, errorOutput) = child.collectOutput(deadline: &deadline)
        let (status, usage) = try child.wait(deadline: &deadline)
        let wall = monotonicSeconds() - child.start
        // The <sys/wait.h> macros do not import: the low 7 bits are the signal, 0 for a normal exit.
        let signal = status & 0x7F
        return ProcessResult(
            wallSeconds: wall, peakRSSKiB: Int(usage.ru_maxrss),
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            output: output, errorOutput: errorOutput, timedOut: deadline?.hasExpired ?? false)
    }

    /// `run(_:_:standardOutput:standardError:environment:timeout:)` on a thread of its own, so that an async caller
    /// waits without holding one of the few threads Swift concurrency runs tasks on.
    public static func run(
        _ executable: String, _ arguments: [String], standardOutput: Stream = .discard,
        standardError: Stream = .discard, environment: [String: String]? = nil, timeout: Double? = nil
    ) async throws(ProcessRunnerError) -> ProcessResult {
        let result = await withCheckedContinuation {
            (done: CheckedContinuation<Result<ProcessResult, ProcessRunnerError>, Never>) in
            Thread.detachNewThread {
                done.resume(
                    returning: Result { () throws(ProcessRunnerError) -> ProcessResult in
                        try run(
                            executable, arguments, standardOutput: standardOutput, standardError: standardError,
                            environment: environment, timeout: timeout)
                    })
            }
        }
        return try result.get()
    }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
