import Foundation
import PlayctlOutput

/// What a soak did and measured, the bounds it is held to, and its report as text or one JSON object.
package struct SoakReport: Sendable {
    /// Resident memory may grow this much after the warm-up (``residentGrowth``).
    package static let residentGrowthBound = 2 << 20

    var swaps: Int
    var seeks: Int
    var clips: Int
    var seeksFinished = 0
    var seeksNotFinished = 0
    /// Items that did not become ready, with their errors.
    var itemFailures: [String] = []
    var seconds: Double = 0
    /// Before the player was made.
    var start = ProcessResources.empty
    /// After the warm-up, the player emptied.
    var warmUp = ProcessResources.empty
    /// After the last step, the player emptied.
    var end = ProcessResources.empty
    /// After the player was invalidated.
    var afterInvalidate = ProcessResources.empty
    var peakResidentBytes = 0
    /// Resident memory at each checkpoint, the player emptied: after the warm-up, every eighth of the steps after
    /// it, and at the end.
    var checkpoints: [Int] = []

    /// The least resident memory over the second half of the checkpoints minus the least over the first half: a
    /// leak raises the floor, while a single reading moves by up to 2 MB either way with how the heap happens to be
    /// fragmented at that moment (the same 200-step soak read -0.6 to +1.8 MB between its warm-up and its end; one
    /// read 2.8 MB beside the test suite). 0 with fewer than two checkpoints.
    var residentGrowth: Int {
        guard checkpoints.count >= 2 else { return 0 }
        let half = checkpoints.count / 2
        return (checkpoints[half...].min() ?? 0) - (checkpoints[..<half].min() ?? 0)
    }

    /// Each bound that was exceeded, as one sentence; empty when the soak passed.
    package var problems: [String] {
        var problems: [String] = []
        if residentGrowth > Self.residentGrowthBound {
            problems.append(
                "resident memory grew by \(Self.megabytes(residentGrowth)) after the warm-up "
                    + "(bound \(Self.megabytes(Self.residentGrowthBound)))")
        }
        if afterInvalidate.fileDescriptors != start.fileDescriptors {
            problems.append(
                "\(afterInvalidate.fileDescriptors) file descriptors open at the end, "
                    + "\(start.fileDescriptors) at the start")
        }
        if afterInvalidate.threads > start.threads {
            let extra = afterInvalidate.threadNames.filter { start.threadNames[$0.key, default: 0] < $0.value }
            let names = extra.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            problems.append(
                "\(afterInvalidate.threads) threads at the end, \(start.threads) at the start (extra: \(names))")
        }
        if !itemFailures.isEmpty {
            problems.append("\(itemFailures.count) item(s) failed to load, first: \(itemFailures[0])")
        }
        return problems
    }

    // MARK: Output

    /// The report as text, one string per line, ending with `result: pass` or `result: FAIL`.
    package var textLines: [String] {
        [
            "playctl soak: \(swaps) item swaps and \(seeks) seeks over \(clips) clips in "
                + String(format: "%.1f s", seconds) + " (one player, manual clock)",
            "seeks: \(seeksFinished) finished, \(seeksNotFinished) not finished (superseded or no ready item)",
            "resident memory: \(Self.megabytes(start.residentBytes)) at the start, "
                + "\(Self.megabytes(warmUp.residentBytes)) after the warm-up, \(Self.megabytes(end.residentBytes)) "
                + "at the end; the least of the second half of \(checkpoints.count) checkpoints over the least of "
                + "the first: \(residentGrowth >= 0 ? "+" : "")\(Self.megabytes(residentGrowth)) "
                + "(bound +\(Self.megabytes(Self.residentGrowthBound))); peak \(Self.megabytes(peakResidentBytes))",
            "file descriptors: \(start.fileDescriptors) at the start, \(warmUp.fileDescriptors) after the warm-up, "
                + "\(end.fileDescriptors) at the end, \(afterInvalidate.fileDescriptors) after invalidating the player",
            "threads: \(start.threads) at the start, \(warmUp.threads) after the warm-up, \(end.threads) at the end, "
                + "\(afterInvalidate.threads) after invalidating the player",
            problems.isEmpty ? "result: pass" : "result: FAIL",
        ]
    }

    /// The report as one JSON object: counts, the four resource snapshots, the checkpoints' resident memory, the
    /// growth and its bound, `passed` and `problems`.
    package var json: JSONValue {
        .object([
            ("swaps", .int(swaps)), ("seeks", .int(seeks)), ("clips", .int(clips)), ("seconds", .double(seconds)),
            ("seeksFinished", .int(seeksFinished)), ("seeksNotFinished", .int(seeksNotFinished)),
            ("itemFailures", .int(itemFailures.count)),
            ("start", start.json), ("warmUp", warmUp.json), ("end", end.json),
            ("afterInvalidate", afterInvalidate.json),
            ("checkpointResidentBytes", .array(checkpoints.map { .int($0) })),
            ("residentGrowthBytes", .int(residentGrowth)), ("residentGrowthBoundBytes", .int(Self.residentGrowthBound)),
            ("peakResidentBytes", .int(peakResidentBytes)),
            ("passed", .bool(problems.isEmpty)), ("problems", .array(problems.map(JSONValue.string))),
        ])
    }

    /// `1.25 MB` (MiB, two decimals; negative sizes keep their sign).
    package static func megabytes(_ bytes: Int) -> String {
        String(format: "%.2f MB", Double(bytes) / Double(1 << 20))
    }
}

extension ProcessResources {
    /// `{"residentBytes", "anonymousBytes", "fileDescriptors", "threads"}`.
    package var json: JSONValue {
        .object([
            ("residentBytes", .int(residentBytes)), ("anonymousBytes", .int(anonymousBytes)),
            ("fileDescriptors", .int(fileDescriptors)),
            ("threads", .int(threads)),
        ])
    }

    /// Not measured yet.
    package static let empty = ProcessResources(
        residentBytes: 0, anonymousBytes: 0, fileDescriptors: 0, threads: 0, threadNames: [:])
}
