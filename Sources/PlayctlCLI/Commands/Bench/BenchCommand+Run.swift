import Dispatch
import Locking
import PlayctlBench
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `playctl bench [--file FILE] [--runs N] [--playback] [--json]`: times playctl against ffmpeg and mpv on one file
/// (PlayctlBench's `DecodeBench`), or with `--playback` measures the player (`PlaybackBench`).
///
/// Prints the report as a table or JSON; progress goes to standard error. Fails (exit 1) when ffmpeg is missing, a
/// command fails, or playctl's exact-seek frame differs from ffmpeg's; mpv is optional.
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
        for (name, value) in rows.withLock({ $0 }) {
            try output.line(name + ": " + value)
        }
    }

    /// Runs both measurements and prints the report (or, with `--playback`, the player's figures).
    func run(_ output: StandardOutput) throws(CommandFailure) {
        if playback {
            try runPlayback(output)
            return
        }
        let bench = DecodeBench(file: file, runs: runs)
        let report = try benchStep { () throws(BenchFailure) in try bench.run(progress: Self.progress) }
        if printsJSON {
            try output.json(report.json)
        } else {
            for line in report.textLines { try output.line(line) }
        }
        let check = report.seekCheck
        guard check.isIdentical else {
            try output.flush()
            throw CommandFailure(
                "playctl's frame at \(report.media.seekTarget.text) s (md5 \(check.playctlMD5)) differs from ffmpeg's "
                    + "(md5 \(check.ffmpegMD5))")
        }
    }

    /// One progress line on standard error.
    static func progress(_ line: String) {
        _ = FileDescriptorIO.writeAll(Array(("bench: " + line + "\n").utf8), to: STDERR_FILENO)
    }
}
