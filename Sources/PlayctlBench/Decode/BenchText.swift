import PlayctlOutput

/// How the benchmarks' reports write their figures: fixed decimals, milliseconds, a ratio against its target, the
/// table of timed commands, the load line, and each command's timings as JSON.
enum BenchText {
    /// `value` with exactly `decimals` decimals (no Foundation formatting); `n/a` when not finite.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value.magnitude * scale).rounded())
        let unit = Int64(scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + String(scaled / unit)
        guard decimals > 0 else { return text }
        let fraction = String(scaled % unit)
        text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        return text
    }

    /// `12.3 ms`.
    static func milliseconds(_ seconds: Double) -> String { fixed(seconds * 1000, 1) + " ms" }

    /// `0.912x (target <= 1.00x: met)`, or `NOT met`.
    static func verdict(_ ratio: Double, target: Double) -> String {
        let met = ratio <= target ? "met" : "NOT met"
        return fixed(ratio, 3) + "x (target <= " + fixed(target, 2) + "x: " + met + ")"
    }

    /// One row per timed command, `commands` naming them: median, min, max, CPU and peak RSS.
    static func table(_ timings: [BenchTiming], commands: [String]) -> [String] {
        let width = max(commands.map(\.count).max() ?? 0, "command".count)
        func row(_ cells: [String]) -> String {
            "  " + cells[0] + String(repeating: " ", count: width - cells[0].count)
                + cells.dropFirst().map { String(repeating: " ", count: max(0, 11 - $0.count)) + $0 }.joined()
        }
        var rows = [row(["command", "median", "min", "max", "CPU", "peak RSS"])]
        for (timing, command) in zip(timings, commands) {
            rows.append(
                row([
                    command, milliseconds(timing.median), milliseconds(timing.minimum),
                    milliseconds(timing.maximum), milliseconds(timing.medianCPU),
                    fixed(Double(timing.peakRSS) / 1024, 1) + " MiB",
                ]))
        }
        return rows
    }

    /// `load average (1 min): 0.12 before, 0.40 after`, with a warning when other work competed for the CPUs.
    static func loadLine(_ loadAverage: (before: Double?, after: Double?)) -> String? {
        guard let before = loadAverage.before, let after = loadAverage.after else { return nil }
        var line = "load average (1 min): " + fixed(before, 2) + " before, " + fixed(after, 2) + " after"
        if max(before, after) > 0.5 {
            line += " (other processes competed for the CPUs: wall times are inflated, compare the CPU column too)"
        }
        return line
    }

    /// One object per tool, keyed by its short name: `command`, `medianSeconds`, `minSeconds`, `maxSeconds`,
    /// `peakRSSKiB`, `medianCPUSeconds`, `wallSeconds`.
    static func json(_ timings: [BenchTiming]) -> JSONValue {
        .object(
            timings.map { timing in
                (
                    timing.benchCase.tool,
                    .object([
                        (
                            "command",
                            .array(([timing.benchCase.executable] + timing.benchCase.arguments).map(JSONValue.string))
                        ),
                        ("medianSeconds", .double(timing.median)),
                        ("minSeconds", .double(timing.minimum)),
                        ("maxSeconds", .double(timing.maximum)),
                        ("peakRSSKiB", .int(timing.peakRSS)),
                        ("medianCPUSeconds", .double(timing.medianCPU)),
                        ("wallSeconds", .array(timing.wallSeconds.map(JSONValue.double))),
                    ])
                )
            })
    }
}
