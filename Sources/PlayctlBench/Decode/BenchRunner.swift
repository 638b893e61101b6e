import PlaybackTesting

/// Times a group of commands against each other.
enum BenchRunner {
    /// Runs every case once untimed (to warm the page cache and the dynamic loader), then `runs` rounds that each
    /// run every case once; the order rotates from round to round so that no case always runs first or last.
    /// `beforeEachRun` is called before every run, warm-ups included (the network bench waits there for an idle link).
    /// - Throws: `BenchFailure` naming the command when a run does not exit with status 0.
    static func measure(
        _ cases: [BenchCase], runs: Int, progress: (String) -> Void, beforeEachRun: () -> Void = {}
    ) throws(BenchFailure) -> [BenchTiming] {
        for benchCase in cases {
            beforeEachRun()
            _ = try runChecked(benchCase)
        }
        var timings = cases.map { BenchTiming(benchCase: $0) }
        for round in 0..<runs {
            for offset in 0..<cases.count {
                let index = (round + offset) % cases.count
                beforeEachRun()
                let result = try runChecked(cases[index])
                timings[index].wallSeconds.append(result.wallSeconds)
                timings[index].peakRSSKiB.append(result.peakRSSKiB)
                timings[index].cpuSeconds.append(result.cpuSeconds)
            }
            progress("  round \(round + 1)/\(runs) done")
        }
        return timings
    }

    /// Runs a case once and fails unless it exits with status 0.
    static func runChecked(
        _ benchCase: BenchCase, capturesOutput: Bool = false
    ) throws(BenchFailure) -> ProcessResult {
        let result = try process { () throws(ProcessRunnerError) in
            try ProcessRunner.run(
                benchCase.executable, benchCase.arguments, standardOutput: capturesOutput ? .capture : .discard)
        }
        guard result.succeeded else {
            let how =
                result.signal.map { "was killed by signal \($0)" }
                ?? "exited with status \(result.exitStatus ?? -1)"
            throw .failed("benchmark command '\(benchCase.commandLine)' \(how)")
        }
        return result
    }
}
