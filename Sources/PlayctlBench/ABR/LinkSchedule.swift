import Foundation
import PlaybackTesting

/// The rate of scripts/netns.sh's bench-only port (18030) over an ABR run: 8 Mbit/s, then 1.5 Mbit/s from a sixth
/// of the run to its half, then 8 Mbit/s again (at 10 s and 30 s of a 60 s run), applied with `tc class change`
/// while the player plays.
public struct LinkSchedule: Sendable {
    /// From `seconds` after the start, the link carries `bitsPerSecond`.
    public struct Step: Sendable {
        public var seconds: Double
        public var bitsPerSecond: Double
    }

    public var steps: [Step]

    /// The port, its tc class (`1:30`, scripts/netns.sh), and the rate it is left at between runs.
    static let port = 18030
    static let classID = "1:30"
    static let baseRate = 8_000_000.0

    /// 8 -> 1.5 -> 8 Mbit/s, changing at `seconds` / 6 and `seconds` / 2.
    static func standard(seconds: Double) -> LinkSchedule {
        LinkSchedule(steps: [
            Step(seconds: 0, bitsPerSecond: baseRate), Step(seconds: seconds / 6, bitsPerSecond: 1_500_000),
            Step(seconds: seconds / 2, bitsPerSecond: baseRate),
        ])
    }

    /// The mean rate over the first `seconds` of the run.
    public func meanBitsPerSecond(over seconds: Double) -> Double {
        guard seconds > 0 else { return steps.first?.bitsPerSecond ?? 0 }
        var bits = 0.0
        for (index, step) in steps.enumerated() where step.seconds < seconds {
            let end = min(index + 1 < steps.count ? steps[index + 1].seconds : seconds, seconds)
            bits += (end - step.seconds) * step.bitsPerSecond
        }
        return bits / seconds
    }

    /// `8 -> 1.5 Mbit/s at 10 s -> 8 Mbit/s at 30 s`.
    public var text: String {
        steps.enumerated().map { index, step in
            let rate = BenchText.fixed(
                step.bitsPerSecond / 1e6, step.bitsPerSecond.truncatingRemainder(dividingBy: 1e6) == 0 ? 0 : 1)
            return index == 0 ? rate : rate + " Mbit/s at " + BenchText.fixed(step.seconds, 0) + " s"
        }.joined(separator: " -> ")
    }

    /// Sets the port's rate (and ceiling) with tc.
    /// - Throws: `BenchFailure` when tc fails.
    static func setRate(_ bitsPerSecond: Double, tc: String) throws(BenchFailure) {
        let rate = "\(Int(bitsPerSecond))bit"
        let arguments = [
            "class", "change", "dev", "lo", "parent", "1:", "classid", classID, "htb", "rate", rate, "ceil", rate,
            "burst", "32kb", "quantum", "1514",
        ]
        let result = try process { () throws(ProcessRunnerError) in
            try ProcessRunner.run(tc, arguments, standardError: .capture)
        }
        guard result.succeeded else {
            throw .failed("tc \(arguments.joined(separator: " ")) failed: \(result.errorText)")
        }
    }

    /// Runs `benchCase` (its output captured) while applying the steps from its start, then puts the base rate
    /// back. The steps' times are measured from the moment the process is spawned.
    func play(_ benchCase: BenchCase, tc: String, timeout: Double) async throws(BenchFailure) -> ProcessResult {
        try Self.setRate(steps.first?.bitsPerSecond ?? Self.baseRate, tc: tc)
        let start = ProcessRunner.monotonicSeconds()
        let later = Array(steps.dropFirst())
        let changes = Task.detached { () -> String? in
            for step in later {
                let wait = start + step.seconds - ProcessRunner.monotonicSeconds()
                if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
                if Task.isCancelled { return nil }
                do {
                    try Self.setRate(step.bitsPerSecond, tc: tc)
                } catch {
                    return "\(error)"
                }
            }
            return nil
        }
        let result: ProcessResult
        do {
            result = try await ProcessRunner.run(
                benchCase.executable, benchCase.arguments, standardOutput: .capture, standardError: .capture,
                timeout: timeout)
        } catch {
            changes.cancel()
            _ = await changes.value
            try? Self.setRate(Self.baseRate, tc: tc)
            throw .failed("cannot run '\(benchCase.commandLine)': \(error)")
        }
        changes.cancel()
        let failure = await changes.value
        try Self.setRate(Self.baseRate, tc: tc)
        if let failure { throw .failed(failure) }
        return result
    }
}
