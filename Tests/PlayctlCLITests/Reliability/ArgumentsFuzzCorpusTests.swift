import CommandLineKit
import Foundation
import PlaybackTesting
import PlayctlBench
import Testing

@testable import PlayctlCLI

/// The argument fuzzer's committed corpus (Fuzz/corpus/args: the seeds, and every input that ever broke a promise of
/// the parser, kept as a regression), replayed through the fuzzer's own checks (CommandLineKit's `ArgumentsFuzzCase.brokenPromises`,
/// with playctl's tool and playctl-bench's). Each file is one command line, its arguments separated by NUL bytes.
@Suite("Fuzz corpus: command lines")
struct ArgumentsFuzzCorpusTests {
    static let corpusDirectory = Repository.url("Fuzz/corpus/args")

    static let files: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []).sorted()
    }()

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 10, "Fuzz/corpus/args holds \(Self.files.count) files")
    }

    @Test(arguments: files)
    func replay(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.corpusDirectory.appendingPathComponent(name)))
        let argv =
            bytes.isEmpty
            ? []
            : bytes.split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        // Each broken promise is an issue naming the file; the other files are replayed all the same.
        for tool in [PlayctlCommands.tool, PlayctlBenchCommands.tool] {
            for broken in ArgumentsFuzzCase.brokenPromises(argv, tool: tool) {
                Issue.record("Fuzz/corpus/args/\(name) (\(tool.spec.name) \(argv)): \(broken)")
            }
        }
    }
}
