import MediaCore
import PlaybackTesting
import PlayctlOutput

/// `bench --network`'s results, rendered as a table or as one JSON object (`NetworkReport+JSON.swift`).
///
/// Times are medians; ratios are playctl's median over the reference's (below 1 means playctl is faster).
public struct NetworkReport: Sendable {
    /// The timed first-frame runs over one link.
    public struct LinkTimings: Sendable {
        public var link: TestHTTPServer.Link
        /// The URL every command opened.
        public var url: String
        /// playctl first, then ffmpeg, then mpv when installed.
        public var timings: [BenchTiming]

        /// The faster of ffmpeg and mpv (by median).
        public var reference: BenchTiming? {
            timings.filter { $0.benchCase.tool != "playctl" }.min { $0.median < $1.median }
        }
        /// playctl's median over the reference's.
        public var ratio: Double {
            guard let playctl = timings.first(where: { $0.benchCase.tool == "playctl" }), let reference else {
                return .nan
            }
            return playctl.median / reference.median
        }
        /// Whether the target applies to this link (it is set at 8 Mbit/s).
        public var hasTarget: Bool { link == NetworkBench.mainLink }
    }

    /// What a full play fetched.
    public struct FullPlay: Sendable {
        /// Bytes that arrived from the server and were kept (`ByteCache.Statistics.bytesFetched`).
        public var bytesFetched: Int64
        /// Body bytes the transport delivered, kept or not (`ByteCache.Statistics.bytesReceived`).
        public var bytesReceived: Int64 = 0
        /// HTTP transfers started.
        public var transfers: Int
        /// Wall time of the play.
        public var seconds: Double
    }

    /// Startups from the cache against the local file's, in seconds, in run order.
    public struct CachedStartup: Sendable {
        /// The full play that filled the cache.
        public var fill: FullPlay
        public var local: [Double] = []
        /// From the cache the first play filled (its memory tier).
        public var memory: [Double] = []
        /// From a new cache on the same directory (its disk tier).
        public var disk: [Double] = []
        /// Bytes the cached starts fetched (0 when they read only the cache).
        public var bytesFetched: Int64 = 0

        public var memoryRatio: Double { BenchTiming.median(memory) / BenchTiming.median(local) }
        public var diskRatio: Double { BenchTiming.median(disk) / BenchTiming.median(local) }
    }

    /// The served file's name, and its local copy.
    public var file: String
    public var localPath: String
    public var fileBytes: Int64
    public var track: TrackInfo
    public var duration: MediaTime?
    /// Whether the ports were shaped (scripts/netns.sh could make a namespace).
    public var shaped: Bool
    /// Whether each run waited for an idle link (tc found).
    public var waitsForIdleLink: Bool
    /// Waits for an idle link that gave up because the link stayed busy (another process used it).
    public var busyWaits: Int
    public var tools: BenchTools
    /// The playctl executable timed.
    public var playctl: String
    public var runs: Int
    /// One entry per link, the one the target is set at first.
    public var firstFrame: [LinkTimings]
    public var cachedStartup: CachedStartup
    public var fullPlay: FullPlay
    /// The 1-minute load average before and after the runs.
    public var loadAverage: (before: Double?, after: Double?)

    // MARK: Figures

    /// The first-frame timings over the link the target is set at.
    public var mainLink: LinkTimings? { firstFrame.first { $0.hasTarget } }
    /// Bytes fetched over the file's size.
    public var bytesRatio: Double { Double(fullPlay.bytesFetched) / Double(max(fileBytes, 1)) }
    /// Whether the executable measured looks like a debug build.
    public var measuresDebugBuild: Bool { playctl.contains("/debug/") }

    /// `8 Mbit/s`, `unshaped`.
    static func name(of link: TestHTTPServer.Link) -> String {
        guard let bits = link.bitsPerSecond else { return "unshaped" }
        return DecimalText.format(bits / 1e6) + " Mbit/s"
    }

    // MARK: Text

    /// The report as a table, one string per line.
    public var textLines: [String] {
        var size = ""
        if let width = track.width, let height = track.height { size = " \(width)x\(height)" }
        let rate = track.frameRate.map { ", " + DecimalText.format($0) + " fps" } ?? ""
        let seconds = duration.map { ", " + SecondsText.format($0) + " s" } ?? ""
        var lines = [
            "playctl-bench run --network: \(file) (\(track.codec)\(size)\(rate)\(seconds), \(fileBytes) bytes) from nginx",
            shaped
                ? "links: scripts/netns.sh's loopback in a private network namespace, shaped with tc"
                : "WARNING: the loopback is NOT shaped (scripts/netns.sh could not make a namespace): every port is "
                    + "unshaped",
            "\(runs) timed runs per command, alternating, after one warm-up run each; each starts cold (a new "
                + "process: no connection reused, playctl's cache in memory and empty)",
            (waitsForIdleLink
                ? "on an idle link (no tc backlog left by the run before);"
                : "without waiting for the link to drain (tc not found);")
                + " times are wall-clock medians from process start to exit; U = the URL",
            "\(tools.cpuCount) CPUs; \(tools.ffmpegVersion); \(tools.mpvVersion ?? "mpv not installed: mpv skipped")",
            "playctl: \(playctl)",
        ]
        if let loadLine = BenchText.loadLine(loadAverage) { lines.append(loadLine) }
        if busyWaits > 0 {
            lines.append(
                "warning: \(busyWaits) runs started on a busy link (still queued after "
                    + "\(BenchText.fixed(LinkQuiet.timeoutSeconds, 0)) s: another process used it): their times are "
                    + "inflated")
        }
        if measuresDebugBuild {
            lines.append(
                "warning: this is a debug build of playctl; run scripts/bench.sh --network to measure a release build")
        }
        for entry in firstFrame {
            lines.append("")
            lines.append("Time to first frame over \(Self.name(of: entry.link)): U = \(entry.url)")
            lines += BenchText.table(
                entry.timings,
                commands: entry.timings.map { $0.benchCase.shortCommandLine(showing: entry.url, as: "U") })
            let reference = entry.reference?.benchCase.tool ?? "?"
            let label = "  playctl / min(ffmpeg, mpv) = playctl / \(reference): "
            if entry.hasTarget {
                lines.append(label + BenchText.verdict(entry.ratio, target: NetworkBench.firstFrameTarget))
            } else {
                lines.append(label + BenchText.fixed(entry.ratio, 3) + "x (the target is set at 8 Mbit/s)")
            }
        }
        let cached = cachedStartup
        let target = NetworkBench.cachedStartupTarget
        let rows = [
            ("local file (its copy in the served folder)", cached.local, ""),
            (
                "URL, the same ByteCache (memory tier)", cached.memory,
                BenchText.verdict(cached.memoryRatio, target: target)
            ),
            (
                "URL, a new ByteCache on its directory (disk tier)", cached.disk,
                BenchText.verdict(cached.diskRatio, target: target)
            ),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        lines += [
            "",
            "Second play from the cache: startup (item + play -> first frame, video only, in this process), "
                + "medians of \(cached.local.count)",
            "  the cache was filled by one full play over \(Self.name(of: NetworkBench.mainLink)) "
                + "(\(cached.fill.bytesFetched) bytes fetched)",
        ]
        for (name, times, verdict) in rows {
            let time = BenchText.milliseconds(BenchTiming.median(times))
            lines.append(
                "  " + name + String(repeating: " ", count: width - name.count)
                    + String(repeating: " ", count: max(0, 11 - time.count)) + time
                    + (verdict.isEmpty ? "" : "  " + verdict))
        }
        lines += [
            "  bytes fetched by the cached starts: \(cached.bytesFetched)",
            "",
            "Bytes transferred for a full play (untimed clock, with audio, over "
                + "\(Self.name(of: NetworkBench.mainLink)), a new memory-only ByteCache)",
            "  \(fullPlay.bytesFetched) bytes kept (\(fullPlay.bytesReceived) received) in \(fullPlay.transfers) "
                + "transfer\(fullPlay.transfers == 1 ? "" : "s") for a \(fileBytes)-byte file "
                + "(\(BenchText.fixed(fullPlay.seconds, 2)) s): "
                + BenchText.verdict(bytesRatio, target: NetworkBench.bytesTarget),
        ]
        return lines
    }
}
