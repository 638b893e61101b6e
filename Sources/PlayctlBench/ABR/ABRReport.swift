import PlaybackTesting
import PlayctlOutput

/// `bench --abr`'s results, as a table or as one JSON object (`ABRReport+JSON.swift`).
public struct ABRReport: Sendable {
    /// The bytes of a full play.
    public struct FullPlay: Sendable {
        /// What nginx sent on the port, headers included.
        public var wireBytes: Int64
        /// The master, the media playlists of the variants played, and each segment in its chosen variant.
        public var usedBytes: Int64
        public var requests: Int
        /// Distinct paths fetched whole.
        public var distinctPaths: Int
        /// The variant each segment was decided for (switch events).
        public var variants: [Int?]
        public var switches: Int
        public var seconds: Double

        public var ratio: Double { Double(wireBytes) / Double(max(usedBytes, 1)) }
    }

    public var shaped: Bool
    public var tools: BenchTools
    public var playctl: String
    public var runs: Int
    public var firstFrameURL: String
    /// playctl first, then ffmpeg, then mpv when installed.
    public var firstFrame: [BenchTiming]
    public var fullPlay: FullPlay
    public var abrURL: String
    public var abrSeconds: Double
    public var schedule: LinkSchedule
    /// playctl first, then mpv max and min when installed; empty when the link is not shaped.
    public var plays: [ABRPlay]
    public var busyWaits: Int
    public var loadAverage: (before: Double?, after: Double?)

    /// The faster of ffmpeg and mpv (by median).
    public var reference: BenchTiming? {
        firstFrame.filter { $0.benchCase.tool != "playctl" }.min { $0.median < $1.median }
    }
    /// playctl's median over the reference's.
    public var firstFrameRatio: Double {
        guard let playctl = firstFrame.first(where: { $0.benchCase.tool == "playctl" }), let reference else {
            return .nan
        }
        return playctl.median / reference.median
    }

    /// Whether playctl's ABR runs (HLS, then DASH) met their three targets, each.
    public var abrTargetsMet: Bool? {
        let runs = plays.filter(\.isPlayctl)
        return runs.isEmpty ? nil : runs.allSatisfy(\.metTargets)
    }

    static func mbit(_ bits: Double) -> String { BenchText.fixed(bits / 1e6, 2) + " Mbit/s" }

    /// The report as a table, one string per line.
    public var textLines: [String] {
        var lines = [
            "playctl-bench run --abr: HLS and DASH ladders from nginx on port \(LinkSchedule.port) (8 Mbit/s unless the ABR run "
                + "changes it)",
            shaped
                ? "links: scripts/netns.sh's loopback in a private network namespace, shaped with tc"
                : "WARNING: the loopback is NOT shaped (scripts/netns.sh could not make a namespace): no ABR run",
            "\(tools.cpuCount) CPUs; \(tools.ffmpegVersion); \(tools.mpvVersion ?? "mpv not installed: mpv skipped")",
            "playctl: \(playctl)",
        ]
        if let loadLine = BenchText.loadLine(loadAverage) { lines.append(loadLine) }
        if busyWaits > 0 {
            lines.append("warning: \(busyWaits) runs started on a busy link (another process used it)")
        }
        if playctl.contains("/debug/") {
            lines.append(
                "warning: this is a debug build of playctl; run scripts/bench.sh --abr to measure a release build")
        }
        lines += [
            "",
            "Time to first frame at 8 Mbit/s, \(runs) runs each (new processes, alternating, idle link): U = \(firstFrameURL)",
        ]
        lines += BenchText.table(
            firstFrame, commands: firstFrame.map { $0.benchCase.shortCommandLine(showing: firstFrameURL, as: "U") })
        lines.append(
            "  playctl / min(ffmpeg, mpv) = playctl / \(reference?.benchCase.tool ?? "?"): "
                + BenchText.verdict(firstFrameRatio, target: ABRBench.firstFrameTarget))
        lines += [
            "",
            "Bytes on the wire of a full play (playctl play U --untimed, 8 Mbit/s; nginx's bytes sent, headers included)",
            "  \(fullPlay.wireBytes) bytes in \(fullPlay.requests) responses (\(BenchText.fixed(fullPlay.seconds, 2)) s) "
                + "for \(fullPlay.usedBytes) bytes used (master, played playlists and segments: "
                + ABRPlay.runs(fullPlay.variants) + "): "
                + BenchText.verdict(fullPlay.ratio, target: ABRBench.bytesTarget),
            "",
        ]
        guard !plays.isEmpty else {
            lines.append("ABR run: not measured (needs a shaped loopback and tc)")
            return lines
        }
        lines.append(
            "ABR run: U = \(abrURL), \(BenchText.fixed(abrSeconds, 0)) s on the real clock, the link \(schedule.text)")
        let names = plays.map(\.player)
        let width = max(names.map(\.count).max() ?? 0, "player".count)
        func row(_ cells: [String]) -> String {
            "  " + cells[0] + String(repeating: " ", count: width - cells[0].count)
                + cells.dropFirst().map { String(repeating: " ", count: max(0, 13 - $0.count)) + $0 }.joined()
        }
        lines.append(row(["player", "wall", "stalls", "switches", "played", "link mean", "played/link"]))
        for play in plays {
            lines.append(
                row([
                    play.player, BenchText.fixed(play.wallSeconds, 1) + " s", play.stalls.map(String.init) ?? "n/a",
                    String(play.switches), Self.mbit(play.playedBitsPerSecond), Self.mbit(play.linkMeanBitsPerSecond),
                    BenchText.fixed(play.playedFraction * 100, 0) + "%",
                ]))
        }
        for play in plays {
            lines.append("  \(play.player) variants played: \(play.variantRuns)")
            lines += play.decisions.map { "    " + $0 }
        }
        for play in plays where play.isPlayctl {
            lines.append(
                "  \(play.player) targets: 0 stalls, <= \(ABRBench.maximumSwitches) switches, played >= "
                    + "\(BenchText.fixed(ABRBench.playedFractionTarget * 100, 0))% of the link's mean: "
                    + (play.metTargets ? "met" : "NOT met"))
        }
        lines.append(
            "  stalls: playctl's metric.stall events; mpv's 'Enter buffering' lines in its --log-file after "
                + "its start. played: the bits of the segments played (playctl: its variantSwitch decisions; mpv: the "
                + "segments the access log shows it fetched) over their duration; link mean: over the play's wall time")
        return lines
    }
}
