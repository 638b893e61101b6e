import Foundation
import PlaybackTesting
import Testing

/// Runs the built `playctl` like `CLIProcess.run`, with a deadline (a hang is a failure, not a stuck test run) and
/// optionally through a launcher such as `setpriv` (to run as another user).
enum TimedCLIProcess {
    /// What one invocation printed, how it ended, and whether the deadline killed it.
    struct Outcome {
        var result: CLIProcess.Result
        var timedOut: Bool
        var seconds: Double
    }

    /// `setpriv` running the command as `nobody`, for tests that need a user root is not (root reads any file).
    static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    static var isRoot: Bool { getuid() == 0 }

    /// Runs `playctl arguments` (through `launcher` when not empty), killing it after `timeout` seconds. Waits with
    /// `Task.sleep`, so a long run does not hold one of the few threads other tests' tasks run on.
    static func run(_ arguments: [String], launcher: [String] = [], timeout: Double,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let binary = CLIProcess.binaryPath
        try #require(FileManager.default.isExecutableFile(atPath: binary),
                     "no playctl executable at \(binary): run 'swift build --build-tests' first",
                     sourceLocation: sourceLocation)
        let scratch = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        let command = launcher + [binary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        let started = Date()
        try process.run()
        var timedOut = false
        while process.isRunning {
            if Date().timeIntervalSince(started) > timeout {
                timedOut = true
                process.terminate()
                try await Task.sleep(for: .seconds(1))
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let result = CLIProcess.Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outURL, encoding: .utf8),
            standardError: try String(contentsOf: errURL, encoding: .utf8))
        return Outcome(result: result, timedOut: timedOut, seconds: Date().timeIntervalSince(started))
    }
}
