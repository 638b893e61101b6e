import Dispatch
import Locking

/// `playctl soak [--swaps N] [--seeks N] [--media DIR] [--json]`: one process swaps items and seeks many times in
/// one player, then checks that memory, file descriptors and threads did not grow (`SoakRun` and `SoakReport`,
/// beside it).
/// Prints its figures; exits 1 when a bound is exceeded or an item fails, 2 for a bad count.
extension SoakCommand: PlayctlCommand {
    /// The generator's seed: every run makes the same steps.
    static let seed: UInt64 = 0x50A4

    func run(_ output: StandardOutput) throws(CommandFailure) {
        let clips = try SoakRun.clips(in: mediaDirectory)
        var soak = SoakRun(clips: clips, swaps: swaps, seeks: seeks, seed: Self.seed) {
            PlayctlMain.exitWithFailure($0)
        }
        soak.progressLine = .onStandardError(json: printsJSON)
        let result = Locked<SoakReport?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached { [soak] in
            let report = await soak.run()
            result.withLock { $0 = report }
            done.signal()
        }
        done.wait()
        let report = result.withLock { $0 }!
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
        if let problem = report.problems.first {
            throw CommandFailure("soak: " + problem)
        }
    }
}
