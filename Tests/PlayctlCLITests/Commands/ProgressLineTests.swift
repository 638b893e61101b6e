import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlCLI

/// Long commands show their progress on standard error when it is a terminal (`script -qc` gives them one): a line
/// redrawn in place; through a pipe, and with --json, not a byte of it.
@Suite("Progress on a terminal")
struct ProgressLineTests {
    static let erase = "\r\u{1B}[K"

    /// `arguments` run by `tool` with a terminal for its output (util-linux's `script`): what the terminal got.
    /// `mustSucceed`: the command's exit status is checked too.
    static func onTerminal(
        _ arguments: [String], tool: String = "playctl", mustSucceed: Bool = true
    ) async throws
        -> String
    {
        let script = try #require(ProcessRunner.findExecutable("script"), "script (util-linux) gives a terminal")
        let command = ([CLIProcess.binaryPath(of: tool)] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try await ProcessRunner.run(
            script, ["-qec", command, "/dev/null"], standardOutput: .capture, standardError: .capture, timeout: 600)
        if mustSucceed { #expect(result.succeeded, "\(command): \(result.outputText) \(result.errorText)") }
        return result.outputText
    }

    static func thumbnails(_ directory: URL, json: Bool = false) -> [String] {
        [
            "thumbnails", MediaFixtures.path("a.mp4"), "--every", "1", "--size", "32x18", "--sprite",
            directory.appendingPathComponent("s.jpg").path, "--vtt", directory.appendingPathComponent("t.vtt").path,
        ] + (json ? ["--json"] : [])
    }

    @Test("the line's text: step, done/total, elapsed, the time left")
    func text() {
        #expect(
            ProgressLine.text("thumbnails", done: 3, total: 6, elapsed: 1.5) == "thumbnails 3/6, 1.5 s, about 2 s left")
        #expect(ProgressLine.text("bench: feed", done: nil, total: nil, elapsed: 12.34) == "bench: feed, 12.3 s")
        #expect(ProgressLine.text("soak: step", done: 6, total: 6, elapsed: 2) == "soak: step 6/6, 2 s")
    }

    @Test("thumbnails: redrawn in place on a terminal, cleared at the end; nothing through a pipe or with --json")
    func thumbnails() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let terminal = try await Self.onTerminal(Self.thumbnails(directory))
        #expect(terminal.contains(Self.erase + "thumbnails 0/6") && terminal.contains(Self.erase + "thumbnails 6/6"))
        #expect(terminal.contains("6 thumbnails of 32x18"))
        let piped = try await CLIProcess.run(Self.thumbnails(directory))
        #expect(piped.status == 0 && piped.standardError.isEmpty, "\(piped.standardError)")
        let json = try await Self.onTerminal(Self.thumbnails(directory, json: true))
        #expect(!json.contains("\u{1B}[K") && json.contains("\"event\":\"summary\""), "\(json)")
    }

    @Test("feed and soak show their steps on a terminal, and not through a pipe")
    func feedAndSoak() async throws {
        let feed = ["feed", Repository.path("Media"), "--swipes", "2", "--dwell", "0.3"]
        let terminal = try await Self.onTerminal(feed)
        #expect(terminal.contains(Self.erase + "feed: swipe 2/2"), "\(terminal)")
        let piped = try await CLIProcess.run(feed)
        #expect(!piped.standardError.contains("\u{1B}[K") && !piped.standardOutput.contains("\u{1B}[K"))
        let soak = ["soak", "--swaps", "12", "--seeks", "12", "--media", Repository.path("Media")]
        // Under a sanitizer the soak's own memory bound fails (the sanitizer's memory; CI leaves SoakCLITests out of
        // those passes): its progress is still checked, its verdict only in the plain pass.
        let soaked = try await Self.onTerminal(soak, mustSucceed: !Sanitizers.isActive)
        #expect(soaked.contains(Self.erase + "soak: step 12/12"), "\(soaked)")
        let soakJSON = try await Self.onTerminal(soak + ["--json"], mustSucceed: !Sanitizers.isActive)
        #expect(!soakJSON.contains("\u{1B}[K"))
    }

    @Test("playctl-bench run: its steps in place on a terminal; none through a pipe")
    func bench() async throws {
        let arguments = ["run", "--thumbnails", "--file", MediaFixtures.path("a.mp4"), "--runs", "1"]
        let terminal = try await Self.onTerminal(arguments, tool: CLIProcess.bench)
        #expect(terminal.contains(Self.erase + "bench: storyboard of"), "\(terminal)")
        #expect(terminal.contains("playctl / ffmpeg"))
        let piped = try await CLIProcess.run(arguments, tool: CLIProcess.bench)
        #expect(piped.status == 0 && piped.standardError.isEmpty, "\(piped.standardError)")
    }
}
