import Feed
import PlayctlCLI
import PlayctlOutput

extension FeedReport {
    /// The report as a table, one string per line.
    public var textLines: [String] {
        var lines = header
        lines += swipeSection
        lines += competitionSection
        lines += wasteSection
        lines += cellularSection
        lines += weakSection
        lines += hlsSection
        lines += soakSection
        let targets = self.targets
        lines += ["", "Targets: \(targets.filter(\.met).count) of \(targets.count) met"]
        for target in targets { lines.append("  " + target.name + ": " + target.verdict) }
        return lines
    }

    private var header: [String] {
        let videos = media.files.filter { $0.kind == .video }
        let durations = videos.compactMap(\.duration)
        let heights = Set(videos.compactMap(\.height)).sorted().map { "\($0)p" }.joined(separator: ", ")
        let span =
            durations.isEmpty
            ? "" : ", " + DecimalText.format(durations.min()!) + "-" + DecimalText.format(durations.max()!) + " s"
        var lines = [
            "playctl-bench run --feed: \(media.folder)/ (\(media.files.count) entries: \(videos.count) videos "
                + "(\(heights)\(span)), \(media.files.count - videos.count) images; \(media.distinctFiles) distinct "
                + "files under distinct URLs) from nginx",
            shaped
                ? "links: scripts/netns.sh's loopback in a private network namespace, shaped with tc"
                : "WARNING: the loopback is NOT shaped (scripts/netns.sh could not make a namespace): every port is "
                    + "unshaped",
            "traces (seed \(bench.seed)): (1) \(bench.swipes) swipes every ~2 s (1.68-2.38 s), forward, 1 in 10 back; "
                + "(2) \(bench.swipes) jumps 6-9 items ahead; (3) \(bench.wasteSwipes) swipes with a 14 s median "
                + "dwell (7-28 s); each real time, the user starting once the first item shows",
            "playctl: FeedController with FeedConfiguration() (pool 5, budget 5, video 2, image 1, inactive videos "
                + "to their first pictures, as their header says, the next video prepared, audio), a new 32 MB memory "
                + "ByteCache per run, the HTTP loader",
            "naive: the same with budget 0 (only the item on screen loads), no prepared item, a pool of 2",
            "mpv: mpv " + MPVReplay.options(prefetch: true).joined(separator: " ")
                + "|no --input-ipc-server=S URL...; latency = command written -> playback-restart after start-file",
            "first frame: from the swipe to the item's first frame on screen and playing; a swipe with none before "
                + "the next counts as its dwell",
            "\(tools.cpuCount) CPUs; \(tools.mpvVersion ?? "mpv ?"); playctl: \(playctl)",
        ]
        if let loadLine = BenchText.loadLine(loadAverage) { lines.append(loadLine) }
        if busyWaits > 0 {
            lines.append("warning: \(busyWaits) runs started on a busy link (another process used it)")
        }
        if measuresDebugBuild {
            lines.append(
                "warning: this is a debug build of playctl; run scripts/bench.sh --feed to measure a release build")
        }
        return lines
    }

    private var swipeSection: [String] {
        var lines = ["", "Swipe to first frame over 8 Mbit/s (trace 1)"]
        lines += Self.latencyTable(swipe)
        let playctl = Self.run("playctl", in: swipe)
        let mpvWarm = Self.run(MPVReplay.name(prefetch: true), in: swipe)
        let naive = Self.run("naive", in: swipe)
        let targets = self.targets
        if let prepared = targets.first(where: { $0.key == "preparedFirstFrameP95" }) {
            var line = "  prepared items p95: " + prepared.verdict
            if let warm = mpvWarm?.latencies(.all) {
                line +=
                    "; mpv --prefetch-playlist=yes: p50 \(BenchText.milliseconds(warm.p50)), "
                    + "p95 \(BenchText.milliseconds(warm.p95))"
            }
            lines.append(line)
        }
        if let playctl {
            let prepared = playctl.swipes(.prepared)
            let groups = [("first frame shown at the swipe", true), ("frame still coming", false)].map { name, had in
                let latencies = FeedSummary.Latencies(
                    prepared.filter { $0.hadFrame == had }.map { $0.latency ?? $0.dwell })
                return "\(name): \(latencies.count), p50 \(BenchText.milliseconds(latencies.p50)), "
                    + "p95 \(BenchText.milliseconds(latencies.p95))"
            }
            lines.append("  playctl's prepared items, " + groups.joined(separator: "; "))
            lines += Self.startLine(playctl)
            if let claimed = playctl.linkClaimed {
                lines.append(
                    "  playctl's item on screen claimed the link \(BenchText.fixed(claimed * 100, 0))% of the run "
                        + "(below its buffer target; prefetches and the prepared item's fetch hold meanwhile)")
            }
        }
        if let playctl, let naive {
            let all = naive.latencies(.all)
            let prepared = Self.ratio(playctl.latencies(.prepared), all).map { BenchText.fixed($0, 3) + "x" } ?? "n/a"
            let cold = Self.ratio(playctl.latencies(.cold), all).map { BenchText.fixed($0, 3) + "x" } ?? "n/a"
            lines.append(
                "  playctl's p95s over the naive baseline's (every swipe cold): prepared \(prepared), not prepared "
                    + "\(cold) (here: images, fetched whole ahead, and swipes back to an item still cached)")
        }
        return lines
    }

    private var competitionSection: [String] {
        var lines = [
            "",
            "Cold items and prefetch competition over 8 Mbit/s (trace 2: jumps past the prefetch window, each "
                + "target's cached bytes dropped before its swipe, so every item starts cold)",
        ]
        lines += Self.latencyTable(competition)
        if let cold = targets.first(where: { $0.key == "coldFirstFrameP95OverMPV" }) {
            lines.append("  playctl p95 / mpv --prefetch-playlist=no p95: " + cold.verdict)
        }
        if let target = targets.first(where: { $0.key == "prefetchCompetitionP95Ratio" }) {
            lines.append("  playctl p95 (prefetching around) / naive p95 (none): " + target.verdict)
        }
        for name in ["playctl", "naive"] {
            if let run = Self.run(name, in: competition) { lines += Self.startLine(run) }
        }
        if let playctl = Self.run("playctl", in: competition)?.latencies(.all),
            let naive = Self.run("naive", in: competition)?.latencies(.all), naive.p50 > 0
        {
            lines.append("  p50s: " + BenchText.fixed(playctl.p50 / naive.p50, 3) + "x")
        }
        let others = competition.compactMap { run -> String? in
            let bytes = run.swipes.compactMap(\.otherBytes).sorted()
            guard !bytes.isEmpty else { return nil }
            let kib = { (value: Int64) in BenchText.fixed(Double(value) / 1024, 0) + " KiB" }
            return "\(run.name) median \(kib(bytes[bytes.count / 2])), max \(kib(bytes.last!))"
        }
        if !others.isEmpty {
            lines.append(
                "  bytes of other items reaching the cache between a swipe and its first frame: "
                    + others.joined(separator: "; "))
        }
        return lines
    }

    private var wasteSection: [String] {
        guard let waste, let summary = waste.summary else { return [] }
        var lines = [
            "",
            "Waste and rebuffering over 8 Mbit/s (trace 3, playctl, \(BenchText.fixed(waste.seconds, 0)) s)",
            "  bytes fetched \(summary.bytesFetched), played \(summary.bytesPlayed) (each item up to where it was "
                + "watched, all of it once it looped)",
            "  wasted \(summary.bytesWasted): \(summary.bytesFetchedUnwatched) of items never on screen (prefetched, "
                + "prepared), \(summary.bytesWasted - summary.bytesFetchedUnwatched) past where watched items were left",
        ]
        for key in ["wasteRatio", "rebufferRatio"] {
            guard let target = targets.first(where: { $0.key == key }) else { continue }
            lines.append("  " + (key == "wasteRatio" ? "waste: " : "rebuffer: ") + target.verdict)
        }
        lines.append(
            "  \(summary.stalls) stall(s), \(BenchText.fixed(summary.stallSeconds, 2)) s stalled of "
                + "\(BenchText.fixed(summary.watchedSeconds, 1)) s watched; \(summary.activations) items, "
                + "\(summary.loaderImpressions) loader impression(s)")
        return lines
    }

    /// What the 3G feed's videos are, when it is not the main feed: ", 640x360 videos at 0.6 Mbit/s".
    private var cellularRendition: String {
        guard let cellular = cellularMedia, cellular.folder != media.folder else { return "" }
        let videos = cellular.files.filter { $0.kind == .video && ($0.duration ?? 0) > 0 }
        let rate = videos.map { Double($0.bytes) * 8 / ($0.duration ?? 1) }.reduce(0, +) / Double(max(videos.count, 1))
        let sizes = Set(videos.compactMap { file in file.width.map { "\($0)x\(file.height ?? 0)" } }).sorted()
        return ", \(sizes.joined(separator: ", ")) videos at \(BenchText.fixed(rate / 1e6, 2)) Mbit/s on average"
    }

    private var cellularSection: [String] {
        guard !cellular.isEmpty else { return [] }
        var lines = [
            "",
            "Loader impressions over 1.6 Mbit/s (3G-like; trace 1 on \(cellularMedia?.folder ?? media.folder)/\(cellularRendition)): an item that does not start (a video playing, an "
                + "image shown) within 100 ms of its swipe shows a spinner, a first frame on screen or not; \"no frame\": "
                + "swipes without a first frame within 100 ms; p50, p95: swipe to first frame",
        ]
        let rows = cellular.compactMap { run in run.summary.map { (run.name, $0, run.latencies(.all), run) } }
        let width = max(rows.map(\.0.count).max() ?? 0, "player".count)
        lines.append(
            "  " + "player".leftAligned(width)
                + ["items", "loaders", "per 1000", "no frame", "p50", "p95"].map { $0.rightAligned(11) }.joined())
        for (name, summary, latencies, run) in rows {
            lines.append(
                "  " + name.leftAligned(width)
                    + [
                        "\(summary.activations)", "\(summary.loaderImpressions)",
                        BenchText.fixed(summary.loaderImpressionsPer1000, 1),
                        "\(run.swipes.filter { ($0.latency ?? .infinity) > 0.1 }.count)",
                        BenchText.milliseconds(latencies.p50),
                        BenchText.milliseconds(latencies.p95),
                    ].map { $0.rightAligned(11) }.joined())
        }
        if let target = targets.first(where: { $0.key == "loaderImpressionsOverNaive" }) {
            lines.append("  playctl / naive: " + target.verdict)
        }
        if let claimed = Self.run("playctl", in: cellular)?.linkClaimed {
            lines.append("  playctl's item on screen claimed the link \(BenchText.fixed(claimed * 100, 0))% of the run")
        }
        return lines
    }

    private var soakSection: [String] {
        guard let soak else { return [] }
        var lines = [
            "",
            "Soak: \(soak.swipes) swipes (0.2-0.8 s each) over the simulated network at 8 Mbit/s under a manual clock "
                + "(real decoding, virtual time), FeedConfiguration() with audio, in \(BenchText.fixed(soak.seconds, 1)) s",
            "  resident memory (after each swipe, free heap handed back, 2 malloc arenas, mmap threshold 128 KB): "
                + "\(SoakReport.megabytes(soak.start.residentBytes)) before the feed, "
                + "\(SoakReport.megabytes(soak.earlyResident)) after the warm-up (mean of swipes "
                + "\(soak.warmUp + 1)-\(soak.warmUp + soak.windowSize)), "
                + "\(SoakReport.megabytes(soak.lateResident)) at the end (mean of the last \(soak.windowSize))",
            "  file descriptors: \(soak.startDescriptors) before the feed, \(soak.endDescriptors) after it ended; "
                + "threads: \(soak.startThreads) before, \(soak.endThreads) after"
                + (soak.extraThreads.isEmpty ? "" : " (extra: \(soak.extraThreads.joined(separator: ", ")))"),
        ]
        if soak.failures > 0 { lines.append("  \(soak.failures) item(s) failed") }
        for target in targets where target.key.hasPrefix("soak") {
            lines.append("  " + target.name.dropFirst("soak: ".count) + ": " + target.verdict)
        }
        return lines
    }

    /// One row per run: swipes, then count, p50 and p95 of all, prepared and cold swipes, and swipes with no frame.
    /// A playctl run's starts (a video playing, an image shown), which come after the first frame when the
    /// player waits for its buffer; mpv plays as soon as it shows its first frame (its playback-restart).
    static func startLine(_ run: SwipeRun) -> [String] {
        guard let summary = run.summary, summary.start.count > 0 else { return [] }
        let start = summary.start
        let prepared = summary.preparedStart
        return [
            "  \(run.name)'s start (playing, or an image shown), every item: p50 \(BenchText.milliseconds(start.p50)), "
                + "p95 \(BenchText.milliseconds(start.p95)); prepared: p50 \(BenchText.milliseconds(prepared.p50)), "
                + "p95 \(BenchText.milliseconds(prepared.p95))"
        ]
    }

    static func latencyTable(_ runs: [SwipeRun]) -> [String] {
        let width = max(runs.map(\.name.count).max() ?? 0, "player".count)
        let groups = SwipeRun.Selection.allCases
        var lines = [
            "  " + String(repeating: " ", count: width)
                + groups.map { $0.rawValue.rightAligned(8) + "".rightAligned(22) }.joined()
                + "no frame".rightAligned(10),
            "  " + "player".leftAligned(width)
                + groups.map { _ in "n".rightAligned(8) + "p50".rightAligned(11) + "p95".rightAligned(11) }.joined()
                + "".rightAligned(10),
        ]
        for run in runs {
            var row = "  " + run.name.leftAligned(width)
            for group in groups {
                let latencies = run.latencies(group)
                row += "\(latencies.count)".rightAligned(8)
                row +=
                    latencies.count > 0
                    ? BenchText.milliseconds(latencies.p50).rightAligned(11)
                        + BenchText.milliseconds(latencies.p95).rightAligned(11)
                    : "-".rightAligned(11) + "-".rightAligned(11)
            }
            lines.append(row + "\(run.missed(.all))".rightAligned(10))
        }
        return lines
    }
}
