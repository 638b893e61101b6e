import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlCLI

@Suite("playctl exit statuses and diagnostics")
struct ExitStatusCLITests {
    @Test(arguments: [
        (["frmae", "a.mp4"], "frame"),
        (["frame", "a.mp4", "--md5"], "frame"),
        (["frame", "a.mp4", "--at", "soon", "--md5"], "frame"),
        (["frame", "a.mp4", "--at", "-1", "--md5"], "frame"),
        (["frame", "a.mp4", "--at", "nan", "--md5"], "frame"),
        (["frame", "a.mp4", "--at", "1"], "frame"),
        (["frames", "a.mp4"], "frames"),
        (["frames", "a.mp4", "--md5", "--count"], "frames"),
        (["probe"], "probe"),
        (["probe", "a.mp4", "b.mp4"], "probe"),
        (["soak", "--swaps", "-1"], "soak"),
        (["soak", "--seeks", "many"], "soak"),
        ([], ""),
    ])
    func usageErrorsExitTwoWithAHint(arguments: [String], command: String) async throws {
        let result = try await CLIProcess.run(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardOutput == "")
        let lines = result.errorLines
        try #require(lines.count == 2, "\(arguments): \(lines)")
        #expect(lines[0].hasPrefix("playctl: error: "))
        let hint =
            command.isEmpty || arguments.first == "frmae"
            ? "see 'playctl --help'" : "see 'playctl \(command) --help'"
        #expect(lines[1] == hint)
    }

    /// Files that cannot be read as media, each with the words the error must contain.
    static func badFiles() throws -> [(path: String, words: String)] {
        [
            (MediaFixtures.path("no-such-clip.mp4"), "no such file"),
            (MediaFixtures.directory.path, "is a directory"),
            (MediaFixtures.path("make-media.sh"), "not a media file"),
        ]
    }

    @Test(arguments: ["probe", "frames", "frame"])
    func runtimeErrorsExitOneWithOneLineNamingTheFile(command: String) async throws {
        for (path, words) in try Self.badFiles() {
            var arguments = [command, path]
            switch command {
            case "frames": arguments.append("--md5")
            case "frame": arguments += ["--at", "1", "--md5"]
            default: break
            }
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardOutput == "")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.errorLines)")
            let line = result.errorLines.first ?? ""
            #expect(line.hasPrefix("playctl: error: \(path): "), "\(line)")
            #expect(line.contains(words), "\(line)")
        }
    }

    @Test func unwritablePNGExitsOneNamingTheOutput() async throws {
        let output = "/nonexistent-directory/frame.png"
        let result = try await CLIProcess.run(["frame", MediaFixtures.path("a.mp4"), "--at", "1", "-o", output])
        #expect(result.status == 1)
        #expect(result.errorLines == ["playctl: error: cannot create '\(output)': No such file or directory"])
    }

    @Test(arguments: [["run", "--runs", "0"], ["run", "--runs", "many"]])
    func benchUsageErrorsExitTwoWithAHint(arguments: [String]) async throws {
        let result = try await CLIProcess.run(arguments, tool: CLIProcess.bench)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 2 && result.errorLines.first?.hasPrefix("playctl-bench: error: ") == true)
        #expect(result.errorLines.last == "see 'playctl-bench run --help'")
    }

    @Test func benchWithoutFFmpegSaysSo() async throws {
        let result = try await CLIProcess.run(
            ["run", "--runs", "1"], tool: CLIProcess.bench, environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("playctl-bench: error: ffmpeg is not installed") == true)
    }

    @Test func playctlHasNoBenchCommand() async throws {
        let result = try await CLIProcess.run(["bench", "--runs", "1"])
        #expect(result.status == 2)
        #expect(result.errorLines.first == "playctl: error: unknown command 'bench'", "\(result.errorLines)")
    }
}

@Suite("playctl --help")
struct HelpCLITests {
    @Test(arguments: PlayctlCommands.spec.commands.map(\.name))
    func everyCommandHasHelp(command: String) async throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.standardOutput.hasPrefix("OVERVIEW: "))
            #expect(result.standardOutput.contains("USAGE: playctl \(command)"))
        }
    }

    @Test func toolHelpAndVersion() async throws {
        let help = try await CLIProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: playctl <command>"))
        let version = try await CLIProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.outputLines == [PlayctlCommands.version])
    }
}
