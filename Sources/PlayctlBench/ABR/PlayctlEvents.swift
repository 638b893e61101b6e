import Foundation
import PlayctlOutput

/// What `playctl play URL --json` printed that `bench --abr` reads: its variant switches, its stalls and its
/// summary's first frame.
struct PlayctlEvents: Sendable {
    /// One `item.variantSwitch`.
    struct Switch: Sendable {
        /// The variant ids (master order); `from` nil for the first choice.
        var from: Int?
        var to: Int
        /// The first segment of `to`, and where it starts (seconds).
        var segment: Int
        var seconds: Double
        var reason: String
        /// Bits per second the choice was made with.
        var estimate: Double?
    }

    var switches: [Switch] = []
    /// `metric.stall` events.
    var stalls = 0
    /// The summary's `firstFrameMs`.
    var firstFrameMilliseconds: Double?

    /// Changes of variant after the first choice, for the first `segments` segments (all when nil).
    func switchCount(segments: Int? = nil) -> Int {
        switches.filter { $0.from != nil && $0.from != $0.to && $0.segment < (segments ?? .max) }.count
    }

    /// Reads playctl's JSON Lines (lines that are not JSON objects are skipped).
    init(jsonLines text: String) {
        for line in text.split(separator: "\n") {
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data), object is [String: Any]
            else { continue }
            let event = JSONValue(foundation: object)
            switch event["event"]?.stringValue {
            case "item.variantSwitch":
                guard let to = event["to"]?["id"]?.stringValue.flatMap({ Int($0) }) else { continue }
                switches.append(
                    Switch(
                        from: event["from"]?["id"]?.stringValue.flatMap { Int($0) }, to: to,
                        segment: event["segment"]?.intValue ?? 0, seconds: event["at"]?.doubleValue ?? 0,
                        reason: event["reason"]?.stringValue ?? "", estimate: event["estimate"]?.doubleValue))
            case "metric.stall":
                stalls += 1
            case "summary":
                firstFrameMilliseconds = event["firstFrameMs"]?.doubleValue
            default:
                break
            }
        }
    }

    /// Each decision as a line: `v0 -> v3 from segment 4 (8.0 s): up, estimate 7.60 Mbit/s`.
    var decisionLines: [String] {
        switches.map { change in
            (change.from.map { "v\($0)" } ?? "start") + " -> v\(change.to) from segment \(change.segment) ("
                + BenchText.fixed(change.seconds, 1) + " s): " + change.reason
                + (change.estimate.map { ", estimate " + BenchText.fixed($0 / 1e6, 2) + " Mbit/s" } ?? "")
        }
    }

    /// The variant each of `count` segments was decided for, in the order the decisions came (a later decision
    /// from a segment on replaces the earlier ones); nil before the first.
    func variants(ofSegments count: Int) -> [Int?] {
        var variants = [Int?](repeating: nil, count: count)
        for change in switches where change.segment < count {
            for index in max(change.segment, 0)..<count { variants[index] = change.to }
        }
        return variants
    }
}
