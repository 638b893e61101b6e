import PlayctlCLI
import PlayctlOutput

/// `playctl-bench run --posters`: the poster pipeline against ffmpeg (`PosterBench`).
extension BenchCommand {
    func runPosters(_ output: StandardOutput) throws(CommandFailure) {
        let bench = PosterBench(runs: runs)
        let report = try benchReport { () async throws(BenchFailure) in
            try await bench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }
}

/// `playctl-bench run --thumbnails`: a storyboard against ffmpeg (`ThumbnailBench`).
extension BenchCommand {
    func runThumbnails(_ output: StandardOutput) throws(CommandFailure) {
        let bench = ThumbnailBench(file: file, runs: runs)
        let report = try benchReport { () async throws(BenchFailure) in
            try await bench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }
}

/// `playctl-bench run --abr`: adaptive streaming against ffmpeg and mpv on a link whose rate changes (`ABRBench`).
extension BenchCommand {
    func runABR(_ output: StandardOutput) throws(CommandFailure) {
        if let reason = ABRBench.unavailableReason { throw CommandFailure(reason) }
        let bench = ABRBench(runs: runs, seconds: abrSeconds.map(Double.init))
        let report = try benchReport { () async throws(BenchFailure) in
            try await bench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }
}

/// `playctl-bench run --scrub`: a drag of the seek bar against a plain exact seek (`ScrubBench`).
extension BenchCommand {
    func runScrub(_ output: StandardOutput) throws(CommandFailure) {
        let bench = ScrubBench(file: file, runs: runs)
        let report = try benchStep { () throws(BenchFailure) in try bench.run(progress: Self.progress) }
        try printReport(output, json: report.json, lines: report.textLines)
    }
}
