import Dispatch
import Locking
import PlayctlBench
import PlayctlOutput

/// `playctl bench --posters`: the poster pipeline against ffmpeg (PlayctlBench's `PosterBench`).
extension BenchCommand {
    func runPosters(_ output: StandardOutput) throws(CommandFailure) {
        let bench = PosterBench(runs: runs)
        let outcome = Locked<Result<PosterReport, BenchFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<PosterReport, BenchFailure>
            do throws(BenchFailure) {
                result = .success(try await bench.run(progress: { Self.progress($0) }))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        let report = try benchStep { () throws(BenchFailure) in try outcome.withLock { $0 }!.get() }
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
    }
}
