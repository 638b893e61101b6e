import Foundation
import PlayctlOutput

/// `bench --dwell`'s results, as a table or one JSON object: for each idle lifetime, the median first frame after
/// each dwell, the ratio of the long dwell's to the short one's, and the connections opened.
public struct DwellReport: Sendable {
    public var file: String
    public var url: String
    public var runs: Int
    public var shaped: Bool
    public var cases: [DwellBench.Case]
    public var loadAverage: (before: Double?, after: Double?)

    /// The median first frame after `dwell` with idle lifetime `lifetime`.
    func median(lifetime: Double, dwell: Double) -> Double {
        BenchTiming.median(cases.first { $0.lifetime == lifetime && $0.dwell == dwell }?.firstFrames ?? [])
    }

    /// The long dwell's median over the short one's, with idle lifetime `lifetime`.
    public func ratio(lifetime: Double) -> Double {
        let dwells = DwellBench.dwells
        return median(lifetime: lifetime, dwell: dwells[dwells.count - 1])
            / median(lifetime: lifetime, dwell: dwells[0])
    }

    /// Whether the default lifetime meets the target.
    public var meetsTarget: Bool {
        ratio(lifetime: DwellBench.lifetimes[DwellBench.lifetimes.count - 1]) <= DwellBench.target
    }

    private static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

    public var textLines: [String] {
        var lines = [
            "First frame after an idle dwell: \(url) (\(shaped ? "8 Mbit/s shaped" : "unshaped")), \(runs) runs, "
                + "load average \(loadAverage.before.map { String(format: "%.2f", $0) } ?? "?") -> "
                + "\(loadAverage.after.map { String(format: "%.2f", $0) } ?? "?")"
        ]
        for lifetime in DwellBench.lifetimes {
            var parts: [String] = []
            for dwell in DwellBench.dwells {
                let one = cases.first { $0.lifetime == lifetime && $0.dwell == dwell }
                let opened = one?.connectionsOpened.reduce(0, +) ?? 0
                parts.append(
                    "after \(Int(dwell)) s \(Self.milliseconds(median(lifetime: lifetime, dwell: dwell))) "
                        + "(\(opened) connections in \(one?.connectionsOpened.count ?? 0) runs)")
            }
            let isDefault = lifetime == DwellBench.lifetimes[DwellBench.lifetimes.count - 1]
            lines.append(
                "idle lifetime \(Int(lifetime)) s: " + parts.joined(separator: ", ")
                    + String(format: "; ratio %.2fx", ratio(lifetime: lifetime))
                    + (isDefault
                        ? String(format: " (target <= %.1fx: %@)", DwellBench.target, meetsTarget ? "met" : "MISSED")
                        : ""))
        }
        return lines
    }

    public var json: JSONValue {
        .object([
            ("file", .string(file)),
            ("url", .string(url)),
            ("runs", .int(runs)),
            ("shaped", .bool(shaped)),
            ("loadAverageBefore", loadAverage.before.map(JSONValue.double) ?? .null),
            ("loadAverageAfter", loadAverage.after.map(JSONValue.double) ?? .null),
            ("target", .double(DwellBench.target)),
            (
                "cases",
                .array(
                    cases.map { one in
                        .object([
                            ("idleLifetime", .double(one.lifetime)),
                            ("dwell", .double(one.dwell)),
                            ("firstFrameSeconds", .array(one.firstFrames.map(JSONValue.double))),
                            ("medianSeconds", .double(BenchTiming.median(one.firstFrames))),
                            ("connectionsOpened", .array(one.connectionsOpened.map(JSONValue.int))),
                        ])
                    })
            ),
            (
                "ratios",
                .array(
                    DwellBench.lifetimes.map { lifetime in
                        .object([("idleLifetime", .double(lifetime)), ("ratio", .double(ratio(lifetime: lifetime)))])
                    })
            ),
        ])
    }
}
