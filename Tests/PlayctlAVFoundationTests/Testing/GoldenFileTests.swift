import Foundation
import PlaybackTesting
import PlayctlAVFoundationTesting
import Testing

@Suite("Golden traces fail when missing, unexplained or different; only an explicit variable records them")
struct GoldenFileTests {
    /// A fresh folder for one test's golden files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("goldens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a missing golden is a failure naming the file and the variable that records it")
    func missing() throws {
        let url = try Self.folder().appendingPathComponent("gone.txt")
        let problem = try #require(GoldenFile(url: url).compare("a\n", record: false))
        #expect(problem.contains(url.path))
        #expect(problem.contains("PLAYCTL_RECORD_GOLDEN=1"))
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is written without the variable")
    }

    @Test("expectTrace records an issue for a golden that is not there")
    func expectTraceFailsWhenMissing() throws {
        let folder = try Self.folder()
        let goldens = folder.appendingPathComponent("Goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        let testFile = folder.appendingPathComponent("SomeTests.swift").path
        withKnownIssue {
            expectTrace("a\n", matchesGolden: "deleted", filePath: testFile)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains(goldens.appendingPathComponent("deleted.txt").path) }
        }
    }

    @Test("a golden without its `# checked against:` line fails; with it, only the trace after the comments counts")
    func provenance() throws {
        let url = try Self.folder().appendingPathComponent("g.txt")
        try Data("a\nb\n".utf8).write(to: url)
        let problem = try #require(GoldenFile(url: url).compare("a\nb\n", record: false))
        #expect(problem.contains("# checked against:") && problem.contains(url.path))

        try Data("# checked against: a fact\n# more\na\nb\n".utf8).write(to: url)
        #expect(GoldenFile(url: url).compare("a\nb\n", record: false) == nil)
        let difference = try #require(GoldenFile(url: url).compare("a\nc\n", record: false))
        #expect(difference.contains("- b") && difference.contains("+ c") && difference.contains(url.path))
    }

    @Test("recording rewrites the trace and keeps the comment lines")
    func recording() throws {
        let url = try Self.folder().appendingPathComponent("g.txt")
        try Data("# checked against: a fact\nold\n".utf8).write(to: url)
        #expect(GoldenFile(url: url).compare("new\n", record: true) == nil)
        #expect(try String(contentsOf: url, encoding: .utf8) == "# checked against: a fact\nnew\n")
    }

    @Test("every committed golden says what it was checked against")
    func committedGoldensSayWhat() throws {
        let folder = Repository.url("Tests/PlayctlAVFoundationTests/Goldens")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }
        #expect(names.count >= 5)
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(GoldenFile.split(text).header.first?.hasPrefix(GoldenFile.provenancePrefix) == true, "\(name)")
        }
    }
}
