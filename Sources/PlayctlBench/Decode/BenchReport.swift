import PlayctlOutput

/// The benchmark's results, rendered as a table or as one JSON object.
///
/// Times are medians of wall time over the timed runs; ratios are playctl's median over the reference tool's
/// (below 1 means playctl is faster); CPU is the median of user plus system time; peak RSS is the highest
/// `ru_maxrss` of any timed run.
public struct BenchReport: Sendable {
    /// The file measured and its seek target.
    public var media: BenchMedia
    /// ffmpeg and mpv, and the machine.
    public var tools: BenchTools
    /// The playctl executable that was measured.
    public var playctl: String
    /// Timed runs per command.
    public var runs: Int
    /// Frames `frames --count` decoded.
    public var frameCount: Int
    /// playctl's exact-seek frame against ffmpeg's.
    public var seekCheck: SeekCheck
    /// The full-decode timings, playctl first.
    public var decode: [BenchTiming]
    /// The exact-seek timings, playctl first.
    public var seek: [BenchTiming]
    /// The 1-minute load average before and after the runs: other work on the machine skews wall times.
    public var loadAverage: (before: Double?, after: Double?)

    // MARK: Figures

    /// playctl's median decode time over ffmpeg's.
    public var decodeRatio: Double { ratio(decode, "playctl", "ffmpeg") }
    /// playctl's median decode CPU time over ffmpeg's.
    public var decodeCPURatio: Double { ratio(decode, "playctl", "ffmpeg", \.medianCPU) }
    /// playctl's median exact-seek CPU time over ffmpeg's.
    public var seekCPURatioFFmpeg: Double { ratio(seek, "playctl", "ffmpeg", \.medianCPU) }
    /// playctl's median exact-seek time over ffmpeg's.
    public var seekRatioFFmpeg: Double { ratio(seek, "playctl", "ffmpeg") }
    /// playctl's median exact-seek time over mpv's, when mpv ran.
    public var seekRatioMPV: Double? {
        seek.contains { $0.benchCase.tool == "mpv" } ? ratio(seek, "playctl", "mpv") : nil
    }

    /// Whether the executable measured looks like a debug build (much slower than release).
    public var measuresDebugBuild: Bool { playctl.contains("/debug/") }

    private func ratio(
        _ timings: [BenchTiming], _ numerator: String, _ denominator: String,
        _ figure: KeyPath<BenchTiming, Double> = \.median
    ) -> Double {
        guard let top = timings.first(where: { $0.benchCase.tool == numerator }),
            let bottom = timings.first(where: { $0.benchCase.tool == denominator })
        else { return .nan }
        return top[keyPath: figure] / bottom[keyPath: figure]
    }

    /// `load average 0.12 before, 0.40 after`, with a warning when other work competed for the CPUs.
    public var loadLine: String? { BenchText.loadLine(loadAverage) }

    // MARK: Text

    /// The report as a table, one string per line.
    public var textLines: [String] {
        let track = media.track
        let target = media.seekTarget
        var size = ""
        if let width = track.width, let height = track.height { size = " \(width)x\(height)" }
        let rate = track.frameRate.map { ", " + DecimalText.format($0) + " fps" } ?? ""
        let duration = media.duration.map { ", " + SecondsText.format($0) + " s" } ?? ""
        var lines = [
            "playctl-bench run: \(media.path) (\(track.codec)\(size)\(rate)\(duration), \(frameCount) frames)",
            "\(runs) timed runs per command, alternating, after one warm-up run each; F = the file above;",
            "ffmpeg also gets -hide_banner -nostdin -loglevel error; times are wall-clock medians",
            "\(tools.cpuCount) CPUs; decoder threads: FFmpeg's automatic choice for playctl and ffmpeg (-threads 0)",
            "\(tools.ffmpegVersion); \(tools.mpvVersion ?? "mpv not installed: mpv comparison skipped")",
            "playctl: \(playctl)",
        ]
        if let loadLine { lines.append(loadLine) }
        if measuresDebugBuild {
            lines.append("warning: this is a debug build of playctl; run scripts/bench.sh to measure a release build")
        }
        lines.append("")
        lines.append("Full decode of the first video stream (\(frameCount) frames, no output)")
        lines += table(decode)
        lines.append("  playctl / ffmpeg: \(verdict(decodeRatio, target: DecodeBench.decodeTarget))")
        lines.append("  playctl / ffmpeg CPU time: " + fixed(decodeCPURatio, 3) + "x")
        lines.append("")
        let keyframe =
            target.keyframeMicroseconds.map {
                "last frame before the keyframe at \(SecondsText.format(microseconds: $0)) s"
            } ?? "last frame (the stream has one keyframe)"
        lines.append(
            "Exact seek to \(target.text) s: \(keyframe), \(target.framesFromKeyframe) frames from the keyframe before")
        lines += table(seek)
        lines.append("  playctl / ffmpeg: \(verdict(seekRatioFFmpeg, target: DecodeBench.seekTarget))")
        lines.append("  playctl / ffmpeg CPU time: " + fixed(seekCPURatioFFmpeg, 3) + "x")
        if let mpvRatio = seekRatioMPV { lines.append("  playctl / mpv:    " + fixed(mpvRatio, 2) + "x") }
        let sameness = seekCheck.isIdentical ? "bit-identical" : "DIFFERENT"
        lines.append("  frame at \(seekCheck.playctlTime) s, md5 from playctl:         \(seekCheck.playctlMD5)")
        lines.append("  from ffmpeg -ss \(target.text) -noautorotate -f framemd5: \(seekCheck.ffmpegMD5) (\(sameness))")
        return lines
    }

    private func table(_ timings: [BenchTiming]) -> [String] {
        BenchText.table(timings, commands: timings.map { $0.benchCase.shortCommandLine(showing: media.path, as: "F") })
    }
    private func verdict(_ ratio: Double, target: Double) -> String { BenchText.verdict(ratio, target: target) }

    private func fixed(_ value: Double, _ decimals: Int) -> String { BenchText.fixed(value, decimals) }
}
