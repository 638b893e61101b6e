import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program left running while the caller does other things (a player driven over its IPC socket, say): spawned
/// as `ProcessRunner` spawns (standard input `/dev/null`, no signal blocked), its output discarded; told to end with
/// ``terminate()`` or ending by itself; reaped by ``wait(timeout:)``, which reports how it ended as `ProcessRunner`
/// does.
public final class BackgroundProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let child: ChildProcess
    private let result = Locked<ProcessResult?>(nil)

    /// Starts `executable` (a path) with `arguments`.
    /// - Throws: `ProcessRunnerError` when it cannot be spawned.
    public init(_ executable: String, _ arguments: [String]) throws(ProcessRunnerError) {
        child = try ChildProcess.spawn(
            executable, arguments, standardOutput: .discard, standardError: .discard, environment: nil)
        pid = child.pid
    }

    /// Sends SIGTERM, unless the child was reaped already (its pid may belong to another process by then).
    public func terminate() {
        result.withLock { result in
            if result == nil { kill(pid, SIGTERM) }
        }
    }

    /// Waits for the child to end, blocking the calling thread; after `timeout` seconds it is told to end
    /// (SIGTERM, then SIGKILL a second later). A second call returns the first one's result.
    /// - Throws: `ProcessRunnerError` when waiting fails.
    public func wait(timeout: Double? = nil) throws(ProcessRunnerError) -> ProcessResult {
        if let done = result.withLock({ $0 }) { return done }
        var deadline = timeout.map { Deadline(pid: pid, at: ProcessRunner.monotonicSeconds() + $0) }
        let (status, usage) = try child.wait(deadline: &deadline)
        let signal = status & 0x7F
        let done = ProcessResult(
            wallSeconds: ProcessRunner.monotonicSeconds() - child.start, peakRSSKiB: Int(usage.ru_maxrss),
            cpuSeconds: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6,
            exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            output: [], errorOutput: [], timedOut: deadline?.hasExpired ?? false)
        result.withLock { $0 = done }
        return done
    }
}
