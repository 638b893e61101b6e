import Foundation
import PlaybackTesting
import Testing

/// Every Swift example of the README and `docs/` compiles: each ```swift block is a whole program (top-level code)
/// with its own imports, typechecked against the modules this build made, as a package that depends only on the
/// products it imports would see them (a type it names without importing its module fails).
@Suite("The Swift examples of the README and docs/ compile")
struct SwiftExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let code: String
        var testDescription: String { "\(file):\(line)" }
    }

    /// The ```swift blocks of the README and every guide in docs/.
    static let examples: [Example] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("docs"))) ?? []
        let files = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return files.flatMap { file -> [Example] in
            guard let text = try? String(contentsOfFile: Repository.path(file), encoding: .utf8) else { return [] }
            var found: [Example] = []
            var block: [String]?
            var start = 0
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if block == nil, trimmed == "```swift" {
                    block = []
                    start = index + 2
                } else if block != nil, trimmed == "```" {
                    found.append(Example(file: file, line: start, code: block!.joined(separator: "\n")))
                    block = nil
                } else if block != nil {
                    block!.append(line)
                }
            }
            return found
        }
    }()

    @Test("there are examples to check")
    func examplesFound() {
        #expect(Self.examples.count >= 8)
        #expect(Self.examples.contains { $0.file == "README.md" })
    }

    @Test("typechecks with only its own imports", arguments: examples)
    func compiles(_ example: Example) async throws {
        let modules = Self.modulesDirectory()
        try #require(FileManager.default.fileExists(atPath: modules + "/Playback.swiftmodule"), "no built modules")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playctl-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = directory.appendingPathComponent("main.swift")
        try Data(example.code.utf8).write(to: main)
        var arguments = ["-typecheck", "-swift-version", "6", "-I", modules, main.path]
        for library in ["CFFmpeg", "CCurl"] {
            arguments += ["-Xcc", "-fmodule-map-file=" + Repository.path("Sources/\(library)/module.modulemap")]
        }
        arguments += ["-Xcc", "-I/usr/include/x86_64-linux-gnu"]
        let result = try await ProcessRunner.run(
            "/usr/bin/env", ["swiftc"] + arguments, standardOutput: .capture, standardError: .capture, timeout: 300)
        let output = String(decoding: result.output + result.errorOutput, as: UTF8.self)
        #expect(result.succeeded, "\(example.file):\(example.line) does not compile:\n\(output)\n\(example.code)")
    }

    /// Where this build put its modules: next to the test executable (`.build/<configuration>/Modules`).
    static func modulesDirectory() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules").path
    }
}
