/// One command the benchmark times: a program and its arguments.
struct BenchCase {
    /// A short name for tables and JSON: `playctl`, `ffmpeg`, `mpv`.
    var tool: String
    /// The program's path.
    var executable: String
    /// The arguments, without the program name.
    var arguments: [String]

    /// The command as a shell would show it, with the tool's short name first.
    var commandLine: String {
        ([tool] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    private static func quoted(_ argument: String) -> String {
        let safe = "-_./:=,+@%"
        let plain = !argument.isEmpty
            && argument.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || safe.contains($0) }
        if plain { return argument }
        var quoted = "'"
        for character in argument {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }
}

/// The timed runs of one case.
struct BenchTiming {
    /// What was run.
    var benchCase: BenchCase
    /// Wall time of each timed run, in seconds, in run order.
    var wallSeconds: [Double] = []
    /// Peak RSS of each timed run, in KiB.
    var peakRSSKiB: [Int] = []
    /// CPU time (user plus system) of each timed run, in seconds.
    var cpuSeconds: [Double] = []

    /// The median wall time (the mean of the two middle runs for an even count).
    var median: Double { Self.median(wallSeconds) }
    /// The fastest run.
    var minimum: Double { wallSeconds.min() ?? .nan }
    /// The slowest run.
    var maximum: Double { wallSeconds.max() ?? .nan }
    /// The highest peak RSS of any run.
    var peakRSS: Int { peakRSSKiB.max() ?? 0 }
    /// The median CPU time: less sensitive than wall time to other processes competing for the CPUs.
    var medianCPU: Double { Self.median(cpuSeconds) }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Times a group of commands against each other.
enum BenchRunner {
    /// Runs every case once untimed (to warm the page cache and the dynamic loader), then `runs` rounds that each
    /// run every case once; the order rotates from round to round so that no case always runs first or last.
    /// - Throws: `CommandFailure` naming the command when a run does not exit with status 0.
    static func measure(
        _ cases: [BenchCase], runs: Int, progress: (String) -> Void
    ) throws(CommandFailure) -> [BenchTiming] {
        for benchCase in cases { _ = try runChecked(benchCase) }
        var timings = cases.map { BenchTiming(benchCase: $0) }
        for round in 0..<runs {
            for offset in 0..<cases.count {
                let index = (round + offset) % cases.count
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
    ) throws(CommandFailure) -> ProcessResult {
        let result = try ProcessRunner.run(benchCase.executable, benchCase.arguments, capturesOutput: capturesOutput)
        guard result.succeeded else {
            let how = result.signal.map { "was killed by signal \($0)" }
                ?? "exited with status \(result.exitStatus ?? -1)"
            throw CommandFailure("benchmark command '\(benchCase.commandLine)' \(how)")
        }
        return result
    }
}
