import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl soak`, short: swaps and seeks in one player leave memory, descriptors and threads where they were.
@Suite("playctl soak")
struct SoakCLITests {
    @Test("its help example, 200 swaps and 200 seeks: memory, descriptors and threads stay within bounds")
    func shortSoak() async throws {
        // The help's example as written (its ./Media made the repository's).
        let example = SoakCommand.configuration.examples[0].commandLine
        #expect(example == "playctl soak --swaps 200 --seeks 200 --json")
        let arguments = example.split(separator: " ").dropFirst().map(String.init)
        let result = try await CLIProcess.run(
            arguments + ["--media", MediaFixtures.directory.path], timeout: 300)
        #expect(!result.timedOut)
        let report = try #require(try JSONValue.parseLines(result.standardOutput).first, "\(result.standardOutput)")
        #expect(report["swaps"]?.intValue == 200 && report["seeks"]?.intValue == 200)
        #expect(report["itemFailures"]?.intValue == 0)
        #expect(report["seeksFinished"]?.intValue == 200, "every seek in the soak is awaited, so none is superseded")
        let start = try #require(report["start"])
        let after = try #require(report["afterInvalidate"])
        let growth = try #require(report["residentGrowthBytes"]?.intValue)
        #expect(after["fileDescriptors"] == start["fileDescriptors"], "\(result.standardOutput)")
        #expect((after["threads"]?.intValue ?? .max) <= (start["threads"]?.intValue ?? 0), "\(result.standardOutput)")
        #expect(growth <= 2 << 20, "resident memory grew by \(growth) bytes after the warm-up")
        #expect(report["passed"] == .bool(true), "\(result.standardOutput)")
        #expect(result.status == 0, "\(result.standardError)")
        // Passed or not, the verdict is consistent with the figures, and a failure is one stderr line.
        let passed = report["passed"] == .bool(true)
        #expect(result.status == (passed ? 0 : 1))
        #expect(result.errorLines.count == (passed ? 0 : 1), "\(result.errorLines)")
    }

    @Test("a bad count is a usage error; a folder without clips fails with one line")
    func badArguments() async throws {
        let negative = try await CLIProcess.run(["soak", "--swaps", "-1"])
        #expect(negative.status == 2)
        #expect(negative.errorLines.first?.hasPrefix("playctl: error: ") == true)
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = try await CLIProcess.run(["soak", "--swaps", "1", "--seeks", "1", "--media", dir.path])
        #expect(empty.status == 1)
        #expect(
            empty.errorLines == ["playctl: error: soak needs at least two playable clips in '\(dir.path)' (found 0)"])
    }
}
