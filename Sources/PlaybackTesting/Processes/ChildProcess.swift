#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A child `ProcessRunner` spawned: its pid, when it started, and the read ends of the pipes it writes to.
struct ChildProcess {
    let executable: String
    let pid: pid_t
    /// `ProcessRunner.monotonicSeconds()` just before the spawn.
    let start: Double
    let outputDescriptor: Int32?
    let errorDescriptor: Int32?

    /// Spawns the program with its streams set up; the parent keeps only the pipes' read ends.
    static func spawn(
        _ executable: String, _ arguments: [String], standardOutput: ProcessRunner.Stream,
        standardError: ProcessRunner.Stream, environment: [String: String]?
    ) throws(ProcessRunnerError) -> ChildProcess {
        let outputPipe = standardOutput == .capture ? try PipeEnds.make(for: executable) : nil
        let errorPipe: PipeEnds?
        do {
            errorPipe = standardError == .capture ? try PipeEnds.make(for: executable) : nil
        } catch {
            outputPipe?.closeBoth()
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        route(&actions, STDOUT_FILENO, standardOutput, outputPipe)
        route(&actions, STDERR_FILENO, standardError, errorPipe)
        // The child starts with no signal blocked and every signal handled by default, whatever the spawning thread
        // blocks or this process ignores: so SIGTERM from a deadline (or a user) ends it as it would a fresh process.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = ProcessRunner.monotonicSeconds()
        let spawnError: Int32
        if let environment {
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            spawnError = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            spawnError = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        // The child has its copies; the parent reads until the child's copies close.
        for pipe in [outputPipe, errorPipe].compactMap({ $0 }) { close(pipe.writeEnd) }
        guard spawnError == 0 else {
            for pipe in [outputPipe, errorPipe].compactMap({ $0 }) { close(pipe.readEnd) }
            throw ProcessRunnerError(operation: "run", path: executable, errno: spawnError)
        }
        return ChildProcess(
            executable: executable, pid: pid, start: start, outputDescriptor: outputPipe?.readEnd,
            errorDescriptor: errorPipe?.readEnd)
    }

    /// Points the child's `descriptor` at `/dev/null`, at the pipe's write end, or leaves it inherited.
    private static func route(
        _ actions: inout posix_spawn_file_actions_t, _ descriptor: Int32, _ stream: ProcessRunner.Stream,
        _ pipe: PipeEnds?
    ) {
        switch stream {
        case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        case .capture: if let pipe { posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd, descriptor) }
        case .inherit: break
        }
    }

    /// Reads both captured streams until each closes (or the deadline gives up on them), then closes them.
    func collectOutput(deadline: inout Deadline?) -> (output: [UInt8], errorOutput: [UInt8]) {
        var open = [outputDescriptor, errorDescriptor].compactMap { $0 }
        var collected: [Int32: [UInt8]] = [:]
        var chunk = [UInt8](repeating: 0, count: 65536)
        reading: while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), deadline?.millisecondsToNextStep() ?? -1)
            if ready < 0 && errno != EINTR { break }
            for entry in polled where ready > 0 && entry.revents != 0 {
                let count = read(entry.fd, &chunk, chunk.count)
                if count > 0 {
                    collected[entry.fd, default: []] += chunk[0..<count]
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
            // Checked on every pass: a child that never stops printing still meets its deadline.
            if deadline?.takeStepIfDue() == .stopReading { break reading }
        }
        for descriptor in open { close(descriptor) }
        return (outputDescriptor.flatMap { collected[$0] } ?? [], errorDescriptor.flatMap { collected[$0] } ?? [])
    }

    /// Reaps the child: blocking in `wait4` without a deadline, polling every millisecond with one.
    func wait(deadline: inout Deadline?) throws(ProcessRunnerError) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let reaped = wait4(pid, &status, deadline == nil ? 0 : WNOHANG, &usage)
            if reaped == pid { return (status, usage) }
            if reaped < 0 {
                guard errno == EINTR else {
                    throw ProcessRunnerError(operation: "wait for", path: executable, errno: errno)
                }
                continue
            }
            _ = deadline?.takeStepIfDue()
            usleep(1000)
        }
    }
}
