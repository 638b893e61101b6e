import PlayctlCLI
import PlayctlOutput

/// `playctl-bench run --feed [--sweep]`: the feed against a naive player and mpv over scripts/netns.sh's shaped loopback
/// (`FeedBench`), or a parameter sweep on the simulated network (`FeedSweep`).
extension BenchCommand {
    /// Runs `--feed` (or `--feed --sweep`) and prints its report. Without the test HTTP server, `--feed` fails at once
    /// (exit 1) saying to run it through scripts/bench.sh --feed; `--sweep` needs only the feed's files.
    func runFeed(_ output: StandardOutput) throws(CommandFailure) {
        if feed.sweep {
            let media = try benchStep { () throws(BenchFailure) in
                try FeedMedia.load(file, default: FeedMedia.cellularFolder)
            }
            let sweep = FeedSweep(
                budgets: feed.budgets, videoCosts: feed.videoCosts, inactiveKiB: feed.inactiveKiB,
                swipes: feed.swipes, seed: UInt64(feed.seed ?? Int(FeedBench.defaultSeed)))
            let report = AsyncWork.wait { await sweep.run(media: media, progress: { Self.progress($0) }) }
            try printReport(output, json: report.json, lines: report.textLines)
            return
        }
        if let reason = FeedBench.unavailableReason { throw CommandFailure(reason) }
        var configured = FeedBench(
            folder: file, swipes: feed.swipes, wasteSwipes: feed.wasteSwipes, soakSwipes: feed.soakSwipes,
            seed: feed.seed.map(UInt64.init))
        if let parts = feed.parts { configured.parts = Set(parts.compactMap(FeedBench.Part.init(rawValue:))) }
        let bench = configured
        let report = try benchReport { () async throws(BenchFailure) in
            try await bench.run(progress: { Self.progress($0) })
        }
        try printReport(output, json: report.json, lines: report.textLines)
    }

    /// Prints a report: its JSON with `--json`, else its lines.
    func printReport(_ output: StandardOutput, json: JSONValue, lines: [String]) throws(CommandFailure) {
        Self.progressLine.clear()
        if printsJSON {
            try output.json(json)
        } else {
            for line in lines { try output.line(line) }
        }
    }
}
