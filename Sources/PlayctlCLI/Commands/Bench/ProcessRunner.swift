#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How one spawned process ended, how long it took and how much memory it used at its peak.
struct ProcessResult {
    /// Wall time from just before `posix_spawn` to the return of `wait4`, in seconds.
    var wallSeconds: Double
    /// The child's peak resident set size, in kibibytes (`ru_maxrss` from `wait4`).
    var peakRSSKiB: Int
    /// The child's CPU time, user plus system, in seconds (from `wait4`): all its threads together.
    var cpuSeconds: Double
    /// The exit status, or `nil` when a signal ended the process.
    var exitStatus: Int32?
    /// The signal that ended the process, if one did.
    var signal: Int32?
    /// Standard output, when it was captured; empty otherwise.
    var output: [UInt8]

    /// Whether the process exited with status 0.
    var succeeded: Bool { exitStatus == 0 }

    /// Standard output as text.
    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// Spawns programs with `posix_spawn`, waits for them with `wait4`, and reports wall time and peak RSS.
///
/// The child's standard input is `/dev/null`; its standard error is `/dev/null` unless `inheritsStandardError`,
/// and its standard output is captured through a pipe or discarded to `/dev/null`.
enum ProcessRunner {
    /// Runs `executable` (a path) with `arguments` (without the program name) and waits for it to end.
    /// - Throws: `CommandFailure` when the process cannot be spawned.
    static func run(
        _ executable: String, _ arguments: [String], capturesOutput: Bool = false, inheritsStandardError: Bool = false
    ) throws(CommandFailure) -> ProcessResult {
        var outputPipe: [Int32] = [-1, -1]
        if capturesOutput {
            guard pipe(&outputPipe) == 0 else {
                throw .system(operation: "create a pipe for", path: executable, errno: errno)
            }
            // Only the child's dup2 copy should stay open in the child (single-threaded caller: no race).
            _ = fcntl(outputPipe[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(outputPipe[1], F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if capturesOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if !inheritsStandardError {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        let spawnError = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        if capturesOutput { close(outputPipe[1]) }
        guard spawnError == 0 else {
            if capturesOutput { close(outputPipe[0]) }
            throw .system(operation: "run", path: executable, errno: spawnError)
        }
        let output = capturesOutput ? readAll(outputPipe[0]) : []
        if capturesOutput { close(outputPipe[0]) }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .system(operation: "wait for", path: executable, errno: errno) }
        }
        let wall = monotonicSeconds() - start
        // The <sys/wait.h> macros do not import: the low 7 bits are the signal, 0 for a normal exit.
        let signal = status & 0x7F
        return ProcessResult(
            wallSeconds: wall, peakRSSKiB: Int(usage.ru_maxrss),
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            output: output)
    }

    /// The full path of `name` found in `PATH`, or `name` itself when it contains a slash and is executable.
    static func findExecutable(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = directory + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// The path of the running executable (`/proc/self/exe`), falling back to `argv[0]`.
    static func currentExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments.first ?? "playctl"
    }

    /// Reads the 1-minute load average from `/proc/loadavg`, or nil where there is none.
    static func loadAverage() -> Double? {
        guard let file = fopen("/proc/loadavg", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            result += chunk[0..<count]
        }
        return result
    }
}
