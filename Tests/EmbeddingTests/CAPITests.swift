import Foundation
import PlaybackTesting
import Testing

/// The C API, tested from C: `scripts/test-capi.sh` installs the library this build made into a temporary prefix,
/// checks its exports and needs, compiles `Tests/CAPI/*.c` against the installed header and `playctl.pc` with
/// `cc -Wall -Wextra -Werror -std=c99`, and runs them (every call, bad arguments, two threads, feeds, posters,
/// metric events); then builds them against the previous header (API 0.1) and runs them against the same library;
/// then builds and runs every C example of docs/c-api.md the same way.
@Suite struct CAPITests {
    @Test func cTestsPassAgainstTheInstalledLibrary() async throws {
        let result = try await Embedding.runScript(
            "scripts/test-capi.sh", ["--no-build", "--bin-path", Embedding.binPath])
        #expect(result.succeeded, "\(result.outputText)\(result.errorText)")
        #expect(result.outputText.contains("exports: ") && result.outputText.contains("all playctl_*"))
        #expect(result.outputText.contains(", 0 failed"), "\(result.outputText)")
        #expect(result.outputText.contains("abi: the tests built against the 0.1 header"), "\(result.outputText)")
        #expect(result.outputText.contains("abi: the tests built against the 0.2 header"), "\(result.outputText)")
        #expect(!result.outputText.contains("FAILED"), "\(result.outputText)")
        let guide = try String(contentsOfFile: Repository.path("docs/c-api.md"), encoding: .utf8)
        let examples = guide.components(separatedBy: "\n").filter { $0 == "```c" }.count
        #expect(examples >= 5)
        #expect(
            result.outputText.contains("docs: \(examples) C examples of docs/c-api.md built and ran"),
            "\(result.outputText)")
    }
}

/// Running the repository's scripts against this build.
enum Embedding {
    /// The folder this test bundle was built into (where `libPlayctlC.so` is).
    static var binPath: String {
        var directory = URL(fileURLWithPath: ProcessRunner.currentExecutable()).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        return directory.path
    }

    /// Runs a script of the repository with bash and waits for it (at most `timeout` seconds), on a thread of its
    /// own (never one of the cooperative pool's).
    static func runScript(
        _ script: String, _ arguments: [String], timeout: Double = 600
    ) async throws -> ProcessResult {
        try await ProcessRunner.run(
            "/bin/bash", [Repository.path(script)] + arguments, standardOutput: .capture,
            standardError: .capture, timeout: timeout)
    }
}
