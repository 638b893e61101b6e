import PlayctlCLI
import PlayctlOutput

/// `playctl-bench run --posters`: the poster pipeline against ffmpeg (`PosterBench`).
extension BenchCommand {
    func runPosters(_ output: StandardOutput) throws(CommandFailure) {
        let bench = PosterBench(runs: runs)
        let outcome = AsyncWork.wait { () -> Result<PosterReport, BenchFailure> in
            do throws(BenchFailure) {
                return .success(try await bench.run(progress: { Self.progress($0) }))
            } catch {
                return .failure(error)
            }
        }
        let report = try benchStep { () throws(BenchFailure) in try outcome.get() }
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
    }
}
