import Foundation
import PlaybackTesting
import Streaming
import Testing

/// The manifest fuzzer's committed corpus (Fuzz/corpus/manifest: real manifests with their parser's selector byte
/// in front, and every input that ever broke a promise of the parsers, kept as a regression), replayed through the
/// fuzzer's own checks (PlaybackTesting's `ManifestFuzzCase`).
@Suite("Fuzz corpus: manifests")
struct ManifestFuzzCorpusTests {
    static let corpusDirectory = Repository.url("Fuzz/corpus/manifest")

    static let files: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []).sorted()
    }()

    static func input(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: corpusDirectory.appendingPathComponent(name)))
    }

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 20, "Fuzz/corpus/manifest holds \(Self.files.count) files")
        // Every parser has seeds.
        let parsers = Set(Self.files.compactMap { (try? Self.input($0))?.first }.map(ManifestFuzzCase.Parser.init))
        #expect(parsers == Set(ManifestFuzzCase.Parser.allCases))
    }

    /// Each file in a process of its own (an exit test, ended after 120 s): a trap in a parser (a `precondition`, a
    /// force unwrap, an overflow) fails this file's case, naming it, and the other files are replayed all the same.
    /// Each broken promise is an issue naming the file.
    @Test(arguments: files)
    func replay(_ name: String) async {
        await #expect(
            processExitsWith: .success,
            "replaying Fuzz/corpus/manifest/\(name) crashed (a signal) or hung (exit code \(processDeadlineExitCode))"
        ) { [name] in
            exitProcess(ifStillRunningAfter: .seconds(120), "the replay of Fuzz/corpus/manifest/\(name)")
            try Self.check(name)
        }
    }

    static func check(_ name: String) throws {
        let outcome = ManifestFuzzCase.check(try input(name))
        for broken in outcome.brokenPromises {
            Issue.record("Fuzz/corpus/manifest/\(name): \(broken)")
        }
        // The seeds are real manifests (from the ladder, ffmpeg and the parser tests): each parses.
        if !name.hasPrefix("regression-") {
            #expect(outcome.error == nil, "\(name): \(String(describing: outcome.error))")
        }
    }
}
