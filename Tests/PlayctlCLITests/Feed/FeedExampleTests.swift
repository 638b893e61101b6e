import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlCLI

/// Every `playctl feed` example runs: those of `playctl feed --help`, and those of docs/feed.md's ```sh blocks, from
/// the repository's root as they are written.
@Suite("playctl feed: every example runs")
struct FeedExampleTests {
    /// A command line and where it is written.
    struct Example: CustomTestStringConvertible, Sendable {
        let source: String
        let commandLine: String
        var testDescription: String { "\(source): \(commandLine)" }
    }

    static let examples: [Example] = {
        let help = FeedCommand.configuration.examples.map {
            Example(source: "feed --help", commandLine: $0.commandLine)
        }
        let text = (try? String(contentsOfFile: Repository.path("docs/feed.md"), encoding: .utf8)) ?? ""
        var inShell = false
        var documented: [Example] = []
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inShell = !inShell && trimmed == "```sh"
            } else if inShell, trimmed.hasPrefix("playctl feed ") {
                let command = trimmed.components(separatedBy: " #").first!.trimmingCharacters(in: .whitespaces)
                documented.append(Example(source: "docs/feed.md", commandLine: command))
            }
        }
        return help + documented
    }()

    @Test("there are examples in the help and in docs/feed.md")
    func found() {
        #expect(Self.examples.filter { $0.source == "feed --help" }.count >= 3)
        #expect(Self.examples.filter { $0.source == "docs/feed.md" }.count >= 3)
    }

    @Test("runs from the repository's root and exits 0 with a summary", arguments: examples)
    func runs(_ example: Example) async throws {
        let words = example.commandLine.split(separator: " ").map(String.init)
        try #require(words.first == "playctl")
        let result = try await CLIProcess.run(
            Array(words.dropFirst()), launcher: ["/usr/bin/env", "-C", Repository.root.path], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.outputLines.last?.contains("feed.summary") == true
                || result.outputLines.contains { $0.hasPrefix("summary: ") }, "\(result.standardOutput)")
        // Short by what it asks for (its scroll's planned length), not by how long this busy machine took.
        let planned = try Self.plannedSeconds(Array(words.dropFirst()))
        #expect(planned <= 20, "examples stay short: the scroll lasts \(planned) s")
    }

    /// The seconds the example's scroll lasts, as `playctl feed` plans it (paths from the repository's root).
    static func plannedSeconds(_ arguments: [String]) throws -> Double {
        // The manifest (the first word after `feed`) and the script (after `--script`) from the repository's root.
        let rooted = arguments.indices.map { index in
            let isPath = index == 1 || (index > 0 && arguments[index - 1] == "--script")
            return isPath && !arguments[index].hasPrefix("/") ? Repository.path(arguments[index]) : arguments[index]
        }
        guard case .run(let parsed) = PlayctlCommands.tool.parse(rooted), let feed = parsed as? FeedCommand else {
            throw CommandFailure("not a feed command: \(arguments)")
        }
        let manifest = try FeedManifest.load(feed.manifestPath)
        return try feed.makeScroll(entries: manifest.entries.count).end
    }
}
