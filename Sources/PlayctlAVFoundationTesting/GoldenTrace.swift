import Foundation
import Testing

/// The environment variable that makes ``expectTrace(_:matchesGolden:filePath:sourceLocation:)`` write its golden
/// files instead of comparing with them: `PLAYCTL_RECORD_GOLDEN=1`.
public let recordGoldenVariable = "PLAYCTL_RECORD_GOLDEN"

/// Compares `trace` with the golden file `name.txt` in the nearest `Goldens` folder at or above the calling test
/// file's folder (within its test target; beside the file when there is none).
///
/// A golden file begins with comment lines (`# ...`) that are not part of the trace; the first of them says what
/// independent fact the trace was checked against when it was recorded (`# checked against: ...`). A missing file,
/// a file without that line, or a difference (shown as a readable diff, `-` golden, `+` trace) is recorded as a test
/// issue naming the file. Only with `PLAYCTL_RECORD_GOLDEN=1` in the environment is the file written (its comment
/// lines kept); the test then passes.
public func expectTrace(
    _ trace: String, matchesGolden name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let file = goldenDirectory(for: filePath).appendingPathComponent(name + ".txt")
    let record = ProcessInfo.processInfo.environment[recordGoldenVariable] == "1"
    if let problem = GoldenFile(url: file).compare(trace, record: record) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}

extension TraceRecorder {
    /// Compares this recorder's trace with a golden file (see ``expectTrace(_:matchesGolden:filePath:sourceLocation:)``).
    public func expectTrace(
        matchesGolden name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        PlayctlAVFoundationTesting.expectTrace(
            trace, matchesGolden: name, filePath: filePath, sourceLocation: sourceLocation)
    }
}

/// A readable line diff of two traces (`-` the first, `+` the second, three lines of context), empty when equal.
public func traceDifference(_ expected: String, _ actual: String) -> String {
    expected == actual ? "" : GoldenDiff.render(golden: expected, actual: actual)
}

/// One golden file: its comment lines (`# ...` at the top) and the trace after them.
public struct GoldenFile: Sendable {
    /// The line that must begin a golden's comment: what independent fact the trace was checked against.
    public static let provenancePrefix = "# checked against:"

    /// Where the file is.
    public let url: URL

    /// A golden file at `url`.
    public init(url: URL) { self.url = url }

    /// Splits a golden file's text into its leading comment lines and the trace after them.
    public static func split(_ text: String) -> (header: [String], trace: String) {
        var lines = text.components(separatedBy: "\n")[...]
        var header: [String] = []
        while let first = lines.first, first.hasPrefix("#") {
            header.append(first)
            lines = lines.dropFirst()
        }
        return (header, lines.joined(separator: "\n"))
    }

    /// Compares `trace` with the file, or writes it (keeping its comment lines) when `record` is true; returns what
    /// is wrong, naming the file and how to record it, or nil when the trace matches.
    public func compare(_ trace: String, record: Bool) -> String? {
        let howToRecord = "\(recordGoldenVariable)=1 swift test --filter <the test> records it"
        let existing = try? String(contentsOf: url, encoding: .utf8)
        if record {
            let header = existing.map { Self.split($0).header } ?? []
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data((header.map { $0 + "\n" }.joined() + trace).utf8).write(to: url)
                return nil
            } catch {
                return "could not write the golden trace \(url.path): \(error)"
            }
        }
        guard let existing else {
            return "the golden trace \(url.path) is missing (\(howToRecord); then say in its first line, "
                + "`\(Self.provenancePrefix) ...`, what independent fact you checked it against)"
        }
        let (header, golden) = Self.split(existing)
        guard header.first?.hasPrefix(Self.provenancePrefix) == true else {
            return "the golden trace \(url.path) does not begin with `\(Self.provenancePrefix) ...`: "
                + "say there what independent fact it was checked against when it was recorded"
        }
        guard golden != trace else { return nil }
        return "the trace differs from the golden \(url.path) (\(howToRecord) again):\n"
            + GoldenDiff.render(golden: golden, actual: trace)
    }
}

/// The nearest `Goldens` folder at or above `filePath`'s folder, up to its test target's folder.
func goldenDirectory(for filePath: String) -> URL {
    let start = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    var folder = start
    while folder.path.count > 1 {
        let candidate = folder.appendingPathComponent("Goldens")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return candidate
        }
        if folder.deletingLastPathComponent().lastPathComponent == "Tests" { break }
        folder = folder.deletingLastPathComponent()
    }
    return start.appendingPathComponent("Goldens")
}
