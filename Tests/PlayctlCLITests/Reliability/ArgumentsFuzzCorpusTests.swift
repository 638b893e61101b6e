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

    /// Each file in a process of its own (an exit test, ended after 60 s): a trap in the parser or in a command's
    /// reading of it (a `precondition`, a force unwrap) fails this file's case, naming it, and the other files are
    /// replayed all the same. Each broken promise is an issue naming the file.
    @Test(arguments: files)
    func replay(_ name: String) async {
        await #expect(
            processExitsWith: .success,
            "replaying Fuzz/corpus/args/\(name) crashed (a signal) or hung (exit code \(processDeadlineExitCode))"
        ) { [name] in
            exitProcess(ifStillRunningAfter: .seconds(60), "the replay of Fuzz/corpus/args/\(name)")
            try Self.check(name)
        }
    }

    static func check(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: corpusDirectory.appendingPathComponent(name)))
        let argv =
            bytes.isEmpty
            ? []
            : bytes.split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
        for tool in [PlayctlCommands.tool, PlayctlBenchCommands.tool] {
            for broken in ArgumentsFuzzCase.brokenPromises(argv, tool: tool) {
                Issue.record("Fuzz/corpus/args/\(name) (\(tool.spec.name) \(argv)): \(broken)")
            }
        }
    }
}
