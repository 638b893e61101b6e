import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlCLI

/// Runs the built `playctl` executable as a child process and collects what it printed.
///
/// The binary is the one SwiftPM built next to this test bundle (`swift build --build-tests` builds both), or
/// the path in `PLAYCTL_BINARY`. Tests `try #require` it, so a missing binary fails loudly instead of skipping.
enum CLIProcess {
    /// What one invocation printed and how it ended.
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Standard output split into lines, without the final empty one.
        var outputLines: [String] { Self.lines(standardOutput) }
        /// Standard error split into lines, without the final empty one.
        var errorLines: [String] { Self.lines(standardError) }

        private static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// Where the executable should be: `PLAYCTL_BINARY`, else next to the running test bundle, else
    /// `.build/debug/playctl` in the repository.
    static var binaryPath: String {
        if let explicit = ProcessInfo.processInfo.environment["PLAYCTL_BINARY"] { return explicit }
        let running = URL(fileURLWithPath: ProcessRunner.currentExecutable()).resolvingSymlinksInPath()
        var directory = running.deletingLastPathComponent()
        // XCTest bundles on Darwin keep the binary in <name>.xctest/Contents/MacOS.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        let sibling = directory.appendingPathComponent("playctl").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return Repository.path(".build/debug/playctl")
    }

    /// Runs `playctl` with `arguments`, in `directory` if given, and waits for it.
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        let binary = binaryPath
        try #require(
            FileManager.default.isExecutableFile(atPath: binary),
            "no playctl executable at \(binary): run 'swift build --build-tests' before 'swift test'",
            sourceLocation: sourceLocation)
        let scratch = try TemporaryDirectory.make(prefix: "playctl-cli")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outURL, encoding: .utf8),
            standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
}
