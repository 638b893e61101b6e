import Foundation
import PlaybackTesting
import Testing

/// Every Swift example of the README and `docs/` compiles and runs: each ```swift block is a whole program
/// (top-level code) with its own imports, compiled against the modules this build made, as a package that depends
/// only on the products it imports would see them (a type it names without importing its module fails), linked with
/// their objects, and run from the repository's root to its end (exit 0 within a minute).
@Suite("The Swift examples of the README and docs/ compile and run")
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

    @Test("compiles with only its own imports and runs to its end", arguments: examples)
    func runs(_ example: Example) async throws {
        let modules = Self.modulesDirectory()
        try #require(FileManager.default.fileExists(atPath: modules + "/Playback.swiftmodule"), "no built modules")
        let objects = try Self.libraryObjects()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playctl-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = directory.appendingPathComponent("main.swift")
        let program = directory.appendingPathComponent("example").path
        try Data(example.code.utf8).write(to: main)
        var arguments = ["-swift-version", "6", "-I", modules, main.path, "-o", program]
        for library in ["CFFmpeg", "CCurl", "CPulse", "CXML2"] {
            arguments += ["-Xcc", "-fmodule-map-file=" + Repository.path("Sources/\(library)/module.modulemap")]
        }
        arguments +=
            ["-Xcc", "-I/usr/include/x86_64-linux-gnu", "-Xcc", "-I/usr/include/libxml2"]
            + (Sanitizers.active.map { ["-sanitize=\($0)"] } ?? [])
            + objects
        let compiled = try await ProcessRunner.run(
            "/usr/bin/env", ["swiftc"] + arguments, standardOutput: .capture, standardError: .capture, timeout: 300)
        let compilerOutput = String(decoding: compiled.output + compiled.errorOutput, as: UTF8.self)
        let builds = compiled.succeeded
        try #require(builds, "\(example.file):\(example.line) does not compile:\n\(compilerOutput)\n\(example.code)")
        // Run from the repository's root, where the examples' paths (Media/a.mp4) lead; the network examples reach
        // the test server of scripts/netns.sh (127.0.0.1:18000), which the suite runs in.
        let ran = try await ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$1\" && exec \"$2\"", "sh", Repository.path("."), program],
            standardOutput: .capture, standardError: .capture, timeout: 60)
        let output = String(decoding: ran.output + ran.errorOutput, as: UTF8.self)
        let ranToItsEnd = ran.succeeded
        #expect(
            ranToItsEnd,
            "\(example.file):\(example.line) did not run to its end (exit \(ran.exitStatus.map { String($0) } ?? "none"), signal \(ran.signal.map { String($0) } ?? "none")):\n\(output)\n\(example.code)"
        )
    }

    /// The objects of every library module this build made, as this test executable was linked from them (its
    /// link list, without the test modules): an example links the modules it imports and what they need.
    static func libraryObjects() throws -> [String] {
        let list = URL(fileURLWithPath: modulesDirectory()).deletingLastPathComponent()
            .appendingPathComponent("playctlPackageTests.product/Objects.LinkFileList").path
        let text = try #require(try? String(contentsOfFile: list, encoding: .utf8), "no link list at \(list)")
        return text.split(separator: "\n").map(String.init).filter { object in
            let module = object.split(separator: "/").last { $0.hasSuffix(".build") } ?? ""
            return !module.hasSuffix("Tests.build") && !module.hasPrefix("playctlPackage")
        }
    }

    /// Where this build put its modules: next to the test executable (`.build/<configuration>/Modules`).
    static func modulesDirectory() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules").path
    }
}
