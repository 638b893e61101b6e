import Foundation
import MediaIO
import PlaybackTesting
import Testing

/// `playctl play FILE --untimed` on every file of the hostile-media corpus: exit 1 with exactly one clear line on
/// standard error naming the file, or exit 0 with nothing on standard error when it played through the damage.
/// Never a crash (a signal), never a hang.
@Suite("playctl play on broken media: one clear error line, or played through")
struct BrokenMediaCLITests {
    @Test(arguments: BrokenMedia.all)
    func play(_ media: BrokenMedia) async throws {
        let dir = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(dir) }
        let path = try media.write(in: dir)
        var launcher: [String] = []
        if media.name == "unreadable.mp4" && CLIProcess.isRoot {
            // Root reads any file: run as nobody, which can reach the file but not read it.
            try #require(FileManager.default.isExecutableFile(atPath: CLIProcess.asNobody[0]), "setpriv is missing")
            launcher = CLIProcess.asNobody
        }
        let result = try await CLIProcess.run(["play", path, "--untimed"], launcher: launcher, timeout: 60)
        #expect(!result.timedOut, "\(media.name) hung: \(result.standardOutput)")
        #expect(result.status == 0 || result.status == 1, "\(media.name) ended with status \(result.status)")
        switch media.expectation {
        case .fails(let kinds):
            Self.expectOneErrorLine(result, path: path, kinds: kinds)
        case .plays:
            #expect(result.status == 0 && result.standardError.isEmpty, "\(media.name): \(result.standardError)")
        case .playsOrFails(let kinds):
            if result.status == 0 {
                #expect(result.standardError.isEmpty, "\(media.name): \(result.standardError)")
            } else {
                Self.expectOneErrorLine(result, path: path, kinds: kinds)
            }
        }
    }

    /// Exit 1 and one line, `playctl: error: PATH: <summary of one of kinds> (...)`.
    static func expectOneErrorLine(
        _ result: CLIProcess.Result, path: String, kinds: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "status \(result.status)", sourceLocation: sourceLocation)
        #expect(result.errorLines.count == 1, "\(result.errorLines)", sourceLocation: sourceLocation)
        let line = result.errorLines.first ?? ""
        #expect(line.hasPrefix("playctl: error: \(path): "), "\(line)", sourceLocation: sourceLocation)
        let summaries = kinds.compactMap { MediaError.Kind(rawValue: $0)?.summary }
        #expect(
            summaries.contains { line.contains($0) }, "\(line) says none of \(summaries)",
            sourceLocation: sourceLocation)
    }
}
