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

    @Test(arguments: files)
    func replay(_ name: String) throws {
        let outcome = ManifestFuzzCase.check(try Self.input(name))
        // Each broken promise is an issue naming the file; the other files are replayed all the same.
        for broken in outcome.brokenPromises {
            Issue.record("Fuzz/corpus/manifest/\(name): \(broken)")
        }
        // The seeds are real manifests (from the ladder, ffmpeg and the parser tests): each parses.
        if !name.hasPrefix("regression-") {
            #expect(outcome.error == nil, "\(name): \(String(describing: outcome.error))")
        }
    }
}
