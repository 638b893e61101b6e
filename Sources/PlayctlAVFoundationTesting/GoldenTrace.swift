import Foundation
import Testing

/// Compares `trace` with the golden file `name.txt` in the nearest `Goldens` folder at or above the calling test
/// file's folder (within its test target; beside the file when there is none). The file is
/// written when it is missing, or when the environment has `PLAYCTL_RECORD_GOLDEN=1` (then the test passes and says
/// so); otherwise a difference is recorded as a test issue with a readable diff (`-` golden, `+` trace).
public func expectTrace(
    _ trace: String, matchesGolden name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = goldenDirectory(for: filePath)
    let file = directory.appendingPathComponent(name + ".txt")
    let record = ProcessInfo.processInfo.environment["PLAYCTL_RECORD_GOLDEN"] == "1"
    guard !record, let golden = try? String(contentsOf: file, encoding: .utf8) else {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(trace.utf8).write(to: file)
        } catch {
            Issue.record(
                Comment(rawValue: "could not write the golden trace \(file.path): \(error)"),
                sourceLocation: sourceLocation)
        }
        return
    }
    guard golden != trace else { return }
    let diff = GoldenDiff.render(golden: golden, actual: trace)
    Issue.record(
        Comment(
            rawValue: "the trace differs from the golden \(file.path) (PLAYCTL_RECORD_GOLDEN=1 rewrites it):\n\(diff)"),
        sourceLocation: sourceLocation)
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

/// A line diff: the longest common subsequence, differences shown with three lines of context.
enum GoldenDiff {
    static func render(golden: String, actual: String) -> String {
        let old = golden.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [(mark: Character, text: String)] = []
        var (i, j) = (0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append((" ", old[i]))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                lines.append(("+", new[j]))
                j += 1
            } else {
                lines.append(("-", old[i]))
                i += 1
            }
        }
        let changed = lines.indices.filter { lines[$0].mark != " " }
        var shown: [String] = []
        var last = -1
        for index in lines.indices where changed.contains(where: { abs($0 - index) <= 3 }) {
            if last >= 0, index > last + 1 { shown.append("  ...") }
            shown.append("\(lines[index].mark) \(lines[index].text)")
            last = index
        }
        return shown.joined(separator: "\n")
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
