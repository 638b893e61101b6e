import Foundation
import PlaybackTesting
import Testing

/// Runs the built `playctl` executable (or `playctl-bench`, with `tool:`) as a child process (with PlaybackTesting's
/// `ProcessRunner`) and collects what it printed.
///
/// The binary is the one SwiftPM built next to this test bundle (`swift build --build-tests` builds them all), or
/// the path in `PLAYCTL_BINARY` (`playctl-bench`: the one next to it). Tests `try #require` it, so a missing binary fails loudly instead of skipping.
enum CLIProcess {
    /// What one invocation printed and how it ended.
    struct Result {
        /// The exit status, or 128 plus the signal that ended the process (as a shell reports it).
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// Whether the timeout ran out and the process was told to end.
        var timedOut = false
        /// Wall time from spawn to exit.
        var seconds = 0.0

        /// Standard output split into lines, without the final empty one.
        var outputLines: [String] { Self.lines(standardOutput) }
        /// Standard error split into lines, without the final empty one.
        var errorLines: [String] { Self.lines(standardError) }

        init(_ result: ProcessResult) {
            status = result.shellStatus
            standardOutput = result.outputText
            standardError = result.errorText
            timedOut = result.timedOut
            seconds = result.wallSeconds
        }

        private static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// `setpriv` running the command as `nobody`, for tests that need a user root is not (root reads any file).
    static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    static var isRoot: Bool { getuid() == 0 }

    /// The benchmarks' executable, for `tool:`.
    static let bench = "playctl-bench"

    /// Where the `playctl` executable should be: `PLAYCTL_BINARY`, else next to the running test bundle, else
    /// `.build/debug/playctl` in the repository.
    static var binaryPath: String { binaryPath(of: "playctl") }

    /// Where the executable `tool` (`playctl`, `playctl-bench`) should be: `PLAYCTL_BINARY`'s folder, else next to the
    /// running test bundle, else `.build/debug` in the repository.
    static func binaryPath(of tool: String) -> String {
        if let explicit = ProcessInfo.processInfo.environment["PLAYCTL_BINARY"] {
            return tool == "playctl"
                ? explicit : URL(fileURLWithPath: explicit).deletingLastPathComponent().path + "/" + tool
        }
        let running = URL(fileURLWithPath: ProcessRunner.currentExecutable()).resolvingSymlinksInPath()
        var directory = running.deletingLastPathComponent()
        // XCTest bundles on Darwin keep the binary in <name>.xctest/Contents/MacOS.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        let sibling = directory.appendingPathComponent(tool).path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return Repository.path(".build/debug/" + tool)
    }

    /// Runs `tool` with `arguments` (and `environment` as its whole environment, if given) and waits for it, on
    /// a thread of its own: a test waiting for a child never holds one of the few threads the other tests' tasks
    /// run on (under ThreadSanitizer, where each such run takes seconds, dozens of them waited for on those threads
    /// kept a player's seeks in other tests from completing for over 20 s). At most one run per CPU at once, as
    /// when they held those threads.
    static func run(
        _ arguments: [String], tool: String = "playctl", environment: [String: String]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        let binary = try requireBinary(tool, sourceLocation)
        // As many of these short runs at once as there are CPUs (ProcessSlots).
        return try await ProcessSlots.perCPU.withSlot {
            Result(
                try await ProcessRunner.run(
                    binary, arguments, standardOutput: .capture, standardError: .capture, environment: environment))
        }
    }

    /// Runs `tool` with `arguments` in this process's environment but for `PLAYCTL_HTTP`: as outside
    /// scripts/netns.sh, with no test HTTP server.
    static func runWithoutServer(
        _ arguments: [String], tool: String = "playctl", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["PLAYCTL_HTTP"] = nil
        return try await run(arguments, tool: tool, environment: environment, sourceLocation: sourceLocation)
    }

    /// Runs `tool arguments` (through `launcher` when not empty), telling it to end after `timeout` seconds (a
    /// hang is a failure, not a stuck test run). Waits on a thread of its own, so a long run does not hold one of
    /// the few threads other tests' tasks run on.
    static func run(
        _ arguments: [String], tool: String = "playctl", launcher: [String] = [], timeout: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Result {
        let command = launcher + [try requireBinary(tool, sourceLocation)] + arguments
        return Result(
            try await ProcessRunner.run(
                command[0], Array(command.dropFirst()), standardOutput: .capture, standardError: .capture,
                timeout: timeout))
    }

    private static func requireBinary(_ tool: String, _ sourceLocation: SourceLocation) throws -> String {
        let binary = binaryPath(of: tool)
        try #require(
            FileManager.default.isExecutableFile(atPath: binary),
            "no \(tool) executable at \(binary): run 'swift build --build-tests' before 'swift test'",
            sourceLocation: sourceLocation)
        return binary
    }
}
