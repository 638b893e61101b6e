import PlayctlOutput

/// What `playctl-bench run --scrub` measured: per run, a drag's figures and a plain exact seek's latency.
public struct ScrubReport: Sendable {
    /// One run: the drag's `metric.scrub` and the plain seek's `metric.seekDidComplete`.
    public struct Run: Sendable {
        public var positions: Int
        public var framesShown: Int
        public var firstFrameMs: Double?
        public var exactMs: Double?
        public var landedTime: Double?
        public var seekMs: Double
        public var seekLandedTime: Double?
    }

    public var file: String
    public var from: Double
    public var to: Double
    public var runs: [Run]

    /// The fewest frames shown in a drag (the target is at least 50 of 60).
    public var framesShown: Int { runs.map(\.framesShown).min() ?? 0 }
    public var positions: Int { runs.map(\.positions).max() ?? 0 }
    public var firstFrameMs: Double { BenchTiming.median(runs.map { $0.firstFrameMs ?? .infinity }) }
    public var exactMs: Double { BenchTiming.median(runs.map { $0.exactMs ?? .infinity }) }
    public var seekMs: Double { BenchTiming.median(runs.map(\.seekMs)) }
    /// The drag's exact landing against the plain seek's (target at most 1.2).
    public var ratio: Double { exactMs / seekMs }
    /// Where each run's drag and seek landed (none: not landed), for a report that says they did not.
    var landings: String {
        runs.map { run in
            let drag = run.landedTime.map { DecimalText.format($0) } ?? "none"
            let seek = run.seekLandedTime.map { DecimalText.format($0) } ?? "none"
            return "drag \(drag) s, seek \(seek) s"
        }.joined(separator: "; ")
    }

    /// Whether every drag and every seek landed where asked (within a microsecond).
    public var landedExactly: Bool {
        runs.allSatisfy { run in
            [run.landedTime, run.seekLandedTime].allSatisfy { $0.map { abs($0 - to) < 1e-6 } ?? false }
        }
    }

    var textLines: [String] {
        let met = { (ok: Bool) in ok ? "met" : "NOT met" }
        return [
            "a drag of the seek bar over \(file) from \(DecimalText.format(from)) s to \(DecimalText.format(to)) s in "
                + "2 s, median of \(runs.count):",
            "  frames shown while dragging  \(framesShown) of \(positions) (fewest; target >= 50: "
                + "\(met(framesShown >= 50)))",
            "  first frame after the drag starts  \(BenchText.milliseconds(firstFrameMs / 1000)) (target <= 50 ms: "
                + "\(met(firstFrameMs <= 50)))",
            "  exact frame after the drag ends  \(BenchText.milliseconds(exactMs / 1000))",
            "  a plain exact seek to \(DecimalText.format(to)) s  \(BenchText.milliseconds(seekMs / 1000))",
            "  drag's landing / plain seek  \(BenchText.verdict(ratio, target: 1.2))",
            "  landed at \(DecimalText.format(to)) s exactly in every run: \(landedExactly ? "yes" : "NO (\(landings))")",
        ]
    }

    var json: JSONValue {
        .object([
            ("benchmark", "scrub"), ("file", .string(file)), ("from", .double(from)), ("to", .double(to)),
            ("runs", .int(runs.count)), ("positions", .int(positions)), ("framesShown", .int(framesShown)),
            ("firstFrameMs", .double(firstFrameMs)), ("exactMs", .double(exactMs)), ("seekMs", .double(seekMs)),
            ("ratio", .double(ratio)), ("landedExactly", .bool(landedExactly)),
        ])
    }
}
