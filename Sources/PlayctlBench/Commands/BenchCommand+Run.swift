import Dispatch
import Locking
import PlayctlCLI
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `playctl-bench run [--file FILE] [--runs N] [--playback | --network] [--json]`: times playctl against ffmpeg and mpv on
/// one file (`DecodeBench`), with `--playback` measures the player (`PlaybackBench`), or with
/// `--network` remote playback over scripts/netns.sh's shaped loopback (`NetworkBench`).
///
/// Prints the report as a table or JSON; progress goes to standard error. Fails (exit 1) when ffmpeg is missing, a
/// command fails, or playctl's exact-seek frame differs from ffmpeg's; mpv is optional. `--network` fails (exit 1)
/// at once, saying to run it through scripts/bench.sh --network, when the test HTTP server is not running.
extension BenchCommand: PlayctlCommand {
    private func runPlayback(_ output: StandardOutput) throws(CommandFailure) {
        let bench = try benchStep { () throws(BenchFailure) in
            try BenchMedia.prepare(path: file, progress: Self.progress)
        }
        let root = BenchMedia.repositoryRoot() ?? "."
        let playbackBench = PlaybackBench(
            file: bench.path, small: root + "/Media/a.mp4", swapTarget: root + "/Media/b.mp4",
            runs: runs)
        let rows = Locked<[(String, String)]>([])
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result = await playbackBench.run(progress: { Self.progress($0) })
            rows.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        Self.progressLine.clear()
        for (name, value) in rows.withLock({ $0 }) {
            try output.line(name + ": " + value)
        }
    }

    private func runNetwork(_ output: StandardOutput) throws(CommandFailure) {
        if let reason = NetworkBench.unavailableReason { throw CommandFailure(reason) }
        let networkBench = NetworkBench(file: file, runs: runs)
        let report = try benchReport { () async throws(BenchFailure) in
            try await networkBench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }

    private func runDwell(_ output: StandardOutput) throws(CommandFailure) {
        let dwellBench = DwellBench(file: file, runs: runs)
        let report = try benchReport { () async throws(BenchFailure) in
            try await dwellBench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }

    /// Runs both measurements and prints the report (or, with `--playback`, the player's figures; with `--network`,
    /// the remote ones).
    func run(_ output: StandardOutput) throws(CommandFailure) {
        Self.progressLine.setShown(ProgressLine.onStandardError(json: printsJSON).isShown)
        defer { Self.progressLine.clear() }
        if playback {
            try runPlayback(output)
            return
        }
        if network {
            try runNetwork(output)
            return
        }
        if dwell {
            try runDwell(output)
            return
        }
        if abr {
            try runABR(output)
            return
        }
        if posters {
            try runPosters(output)
            return
        }
        if thumbnails {
            try runThumbnails(output)
            return
        }
        if scrub {
            try runScrub(output)
            return
        }
        if feed.feed {
            try runFeed(output)
            return
        }
        let bench = DecodeBench(file: file, runs: runs)
        let report = try benchStep { () throws(BenchFailure) in try bench.run(progress: Self.progress) }
        try printReport(output, json: report.json, lines: report.textLines)
        let check = report.seekCheck
        guard check.isIdentical else {
            try output.flush()
            throw CommandFailure(
                "playctl's frame at \(report.media.seekTarget.text) s (md5 \(check.playctlMD5)) differs from ffmpeg's "
                    + "(md5 \(check.ffmpegMD5))")
        }
    }

    /// The benchmark's progress: one line on standard error redrawn in place when it is a terminal (not with
    /// --json), nothing otherwise.
    static let progressLine = ProgressLine(shown: false)

    /// Shows `line` as the benchmark's current step.
    static func progress(_ line: String) {
        progressLine.update("bench: " + line.trimmingCharacters(in: .whitespaces))
    }
}
