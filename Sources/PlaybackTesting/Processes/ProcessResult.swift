/// How one spawned process ended, what it printed, how long it took and how much memory it used at its peak.
public struct ProcessResult: Sendable {
    /// Wall time from just before `posix_spawn` to the child being reaped, in seconds.
    public var wallSeconds: Double
    /// The child's peak resident set size, in kibibytes (`ru_maxrss` from `wait4`).
    public var peakRSSKiB: Int
    /// The child's CPU time, user plus system, in seconds (from `wait4`): all its threads together.
    public var cpuSeconds: Double
    /// The exit status, or `nil` when a signal ended the process.
    public var exitStatus: Int32?
    /// The signal that ended the process, if one did.
    public var signal: Int32?
    /// Standard output, when it was captured; empty otherwise.
    public var output: [UInt8]
    /// Standard error, when it was captured; empty otherwise.
    public var errorOutput: [UInt8]
    /// Whether the timeout ran out and the runner signalled the process to end.
    public var timedOut: Bool

    /// Whether the process exited with status 0.
    public var succeeded: Bool { exitStatus == 0 }

    /// The status as a shell reports it: the exit status, or 128 plus the signal that ended the process.
    public var shellStatus: Int32 { exitStatus ?? 128 + (signal ?? 0) }

    /// Standard output as text (invalid UTF-8 repaired).
    public var outputText: String { String(decoding: output, as: UTF8.self) }

    /// Standard error as text (invalid UTF-8 repaired).
    public var errorText: String { String(decoding: errorOutput, as: UTF8.self) }
}
