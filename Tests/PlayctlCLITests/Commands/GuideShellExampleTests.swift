import Foundation
import PlaybackTesting
import Testing

/// The ```sh examples of docs/thumbnails.md and docs/report.md run as written (each line by /bin/sh in a folder
/// where `Media` is the repository's clips and `playctl` the binary built here) and make the files they name.
@Suite("The shell examples of docs/thumbnails.md and docs/report.md")
struct GuideShellExampleTests {
    /// The command lines of `guide`'s ```sh blocks (a trailing `# comment` removed).
    static func commands(_ guide: String) throws -> [String] {
        let text = try String(contentsOfFile: Repository.path(guide), encoding: .utf8)
        var inShell = false
        var commands: [String] = []
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inShell = !inShell && trimmed == "```sh"
            } else if inShell, trimmed.hasPrefix("playctl ") {
                let command = trimmed.range(of: "  #").map { String(trimmed[..<$0.lowerBound]) } ?? trimmed
                commands.append(command.trimmingCharacters(in: .whitespaces))
            }
        }
        return commands
    }

    @Test("each runs and writes its outputs", arguments: ["docs/thumbnails.md", "docs/report.md"])
    func runs(guide: String) async throws {
        let commands = try Self.commands(guide)
        #expect(commands.count >= 2)
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("Media").path, withDestinationPath: Repository.path("Media"))
        let binary = CLIProcess.binaryPath(of: "playctl")
        for command in commands {
            let line = "cd '\(directory.path)' && '\(binary)'" + command.dropFirst("playctl".count)
            let result = try await ProcessRunner.run(
                "/bin/sh", ["-c", line], standardOutput: .capture, standardError: .capture, timeout: 300)
            #expect(result.succeeded, "\(command): \(result.errorText)")
            // Every file it names for output (-o, --sprite, --vtt, --timeline, a redirection) is there, not empty.
            let words = command.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated()
            where ["-o", "--sprite", "--vtt", "--timeline", ">"].contains(word) && index + 1 < words.count {
                let path = directory.appendingPathComponent(words[index + 1]).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 0, "\(command): \(words[index + 1])")
            }
        }
    }
}
