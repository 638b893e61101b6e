import Foundation
import PlaybackTesting

/// `playctl-bench run --abr`: adaptive streaming (HLS) measured over scripts/netns.sh's shaped loopback, on its
/// bench-only port 18030 (8 Mbit/s unless a run changes it; no test uses it).
///
/// 1. Time to first frame of the ladder's master playlist (`ladder/hls-ts/master.m3u8`, 4 rungs of 12 s) at 8 Mbit/s:
///    `playctl play U --frames 1` against `ffmpeg -i U -frames:v 1 -f null -` and `mpv --frames=1 --vo=null
///    --ao=null U`, each a new process on an idle link, alternating, medians (as `--network` times them). Target:
///    playctl at most 0.8x the faster of ffmpeg and mpv.
/// 2. Bytes on the wire of a full play (`playctl play U --untimed --json`): what nginx sent on the port (its access
///    log, headers included) against the master, the media playlists of the variants played and the segment of
///    each index in the variant playctl's `item.variantSwitch` events chose for it. Target: at most 1.02x.
/// 3. An ABR run: `ladder/long-ts/master.m3u8` (the same rungs, 60 s) played on the real clock while the port's rate
///    goes 8 -> 1.5 -> 8 Mbit/s (at a sixth and at half of the run: 10 s and 30 s of 60), by playctl (`play U
///    --json`: its stalls are its `metric.stall` events, its variants its switch events) and by mpv with
///    `--hls-bitrate=max` and `=min` (its stalls are `Enter buffering` in its verbose log, its variants the segments
///    the access log shows it fetched). Then playctl on the same ladder as a DASH MPD (`ladder/long-dash/`) on the
///    same schedule. Targets for each playctl run: no stall, at most 4 switches, the mean bit rate played at least
///    60% of the link's mean rate (for DASH, of the video Representations' segments: its audio is a set of its own).
public struct ABRBench: Sendable {
    public static let firstFrameTarget = 0.8
    public static let bytesTarget = 1.02
    public static let maximumStalls = 0
    public static let maximumSwitches = 4
    public static let playedFractionTarget = 0.6
    /// The ladders (paths in the served folder).
    public static let shortMaster = "ladder/hls-ts/master.m3u8"
    public static let longMaster = "ladder/long-ts/master.m3u8"
    /// The same 60 s ladder as a DASH MPD: playctl plays it on the same schedule after the HLS run (mpv's DASH
    /// demuxer does not adapt either: it is not run on it).
    public static let longDASH = "ladder/long-dash/manifest.mpd"
    /// The ABR run's length when `--abr-seconds` is absent (the long ladder's duration).
    public static let defaultSeconds = 60.0

    public let runs: Int
    /// The ABR run's length (at most the long ladder's 60 s; shorter plays stop there).
    public let seconds: Double
    public let playctl: String

    public init(runs: Int, seconds: Double?, playctl: String = BenchTools.playctl()) {
        self.runs = runs
        self.seconds = min(seconds ?? Self.defaultSeconds, Self.defaultSeconds)
        self.playctl = playctl
    }

    /// Why the bench cannot run here (nil when it can).
    public static var unavailableReason: String? {
        guard TestHTTPServer.base == nil || TestHTTPServer.root == nil || AccessLog.current == nil else { return nil }
        return "bench --abr measures over the test HTTP server on a shaped loopback, which is not running "
            + "(PLAYCTL_HTTP is not set): run it through scripts/bench.sh --abr"
    }

    static func url(_ path: String) -> String {
        "\(TestHTTPServer.base ?? "http://127.0.0.1"):\(LinkSchedule.port)/\(path)"
    }

    /// Measures everything, saying each step on `progress`.
    public func run(progress: @Sendable (String) -> Void) async throws(BenchFailure) -> ABRReport {
        guard Self.unavailableReason == nil, let root = TestHTTPServer.root, let log = AccessLog.current else {
            throw .failed(Self.unavailableReason ?? "no server")
        }
        let loadBefore = LoadAverage.oneMinute()
        let tools = try BenchTools.find(progress: progress)
        let short = try LocalLadder.read(Self.shortMaster, root: root)
        let long = try LocalLadder.read(Self.longMaster, root: root)
        let quiet = LinkQuiet.find(shaped: TestHTTPServer.isShaped)
        let tc = TestHTTPServer.isShaped ? quiet.tc : nil
        if let tc { try LinkSchedule.setRate(LinkSchedule.baseRate, tc: tc) }

        let url = Self.url(Self.shortMaster)
        let cases = BenchCase.firstFrame(of: url, playctl: playctl, tools: tools)
        progress(
            "first frame of \(Self.shortMaster) at 8 Mbit/s: \(runs) runs each of "
                + cases.map(\.tool).joined(separator: ", "))
        let firstFrame = try BenchRunner.measure(cases, runs: runs, progress: progress, beforeEachRun: quiet.wait)

        progress("bytes of a full play of \(Self.shortMaster) (untimed)")
        quiet.wait()
        let fullPlay = try await bytesOfFullPlay(url, ladder: short, log: log)

        var plays: [ABRPlay] = []
        let schedule = LinkSchedule.standard(seconds: seconds)
        if let tc {
            plays.append(
                try await playctlRun(long, schedule: schedule, tc: tc, log: log, quiet: quiet, progress: progress))
            let dash = try LocalLadder.readDASH(Self.longDASH, root: root)
            plays.append(
                try await playctlRun(
                    dash, label: "playctl, DASH", schedule: schedule, tc: tc, log: log, quiet: quiet,
                    progress: progress))
            if let mpv = tools.mpv {
                for choice in ["max", "min"] {
                    plays.append(
                        try await mpvRun(
                            mpv, choice: choice, long, schedule: schedule, tc: tc, log: log, quiet: quiet,
                            progress: progress))
                }
            }
        } else {
            progress("the loopback is not shaped (or tc is missing): the ABR run is skipped")
        }
        return ABRReport(
            shaped: TestHTTPServer.isShaped, tools: tools, playctl: playctl, runs: runs, firstFrameURL: url,
            firstFrame: firstFrame, fullPlay: fullPlay, abrURL: Self.url(Self.longMaster), abrSeconds: seconds,
            schedule: schedule, plays: plays, busyWaits: quiet.busyWaits,
            loadAverage: (loadBefore, LoadAverage.oneMinute()))
    }

    /// Plays `url` to its end with `--untimed` and weighs the bytes nginx sent against what the play used.
    func bytesOfFullPlay(
        _ url: String, ladder: LocalLadder, log: AccessLog
    ) async throws(BenchFailure)
        -> ABRReport.FullPlay
    {
        let mark = log.mark()
        let benchCase = BenchCase(
            tool: "playctl", executable: playctl, arguments: ["play", url, "--untimed", "--json"])
        let result = try await Self.run(benchCase, timeout: 300)
        usleep(200_000)  // nginx logs a response as it ends
        let responses = log.responses(since: mark, port: LinkSchedule.port)
        let events = PlayctlEvents(jsonLines: result.outputText)
        let variants = events.variants(ofSegments: ladder.segmentCount)
        var used = ladder.masterBytes
        for variant in Set(variants.compactMap { $0 }) where ladder.variants.indices.contains(variant) {
            used += ladder.variants[variant].playlistBytes
        }
        for (index, variant) in variants.enumerated() {
            guard let variant, ladder.variants.indices.contains(variant) else { continue }
            used += ladder.variants[variant].segments[index].bytes
        }
        var distinct: [String: Int64] = [:]
        for response in responses where response.status == 200 || response.status == 206 {
            distinct[response.path] = response.bytesSent
        }
        return ABRReport.FullPlay(
            wireBytes: responses.reduce(0) { $0 + $1.bytesSent }, usedBytes: used, requests: responses.count,
            distinctPaths: distinct.count, variants: variants, switches: events.switchCount(),
            seconds: result.wallSeconds)
    }

    private func playctlRun(
        _ ladder: LocalLadder, label: String = "playctl", schedule: LinkSchedule, tc: String, log: AccessLog,
        quiet: LinkQuiet, progress: (String) -> Void
    ) async throws(BenchFailure) -> ABRPlay {
        var arguments = ["play", Self.url(ladder.master), "--json"]
        if seconds < Self.defaultSeconds { arguments += ["--until", BenchText.fixed(seconds, 3)] }
        let benchCase = BenchCase(tool: "playctl", executable: playctl, arguments: arguments)
        progress(
            "ABR run: \(label) (\(ladder.master)), \(BenchText.fixed(seconds, 0)) s on the real clock, the link "
                + schedule.text)
        quiet.wait()
        let mark = log.mark()
        let result = try await schedule.play(benchCase, tc: tc, timeout: seconds * 3 + 60)
        try Self.check(result, benchCase)
        usleep(200_000)
        let responses = log.responses(since: mark, port: LinkSchedule.port)
        let events = PlayctlEvents(jsonLines: result.outputText)
        let count = segments(of: ladder)
        let variants = events.variants(ofSegments: count)
        return ABRPlay(
            player: label, command: [playctl] + arguments, wallSeconds: result.wallSeconds, stalls: events.stalls,
            stallSource: "metric.stall events", switches: events.switchCount(segments: count),
            segmentVariants: variants,
            playedBitsPerSecond: ABRPlay.playedRate(variants, ladder: ladder),
            linkMeanBitsPerSecond: schedule.meanBitsPerSecond(over: result.wallSeconds), requests: responses.count,
            wireBytes: responses.reduce(0) { $0 + $1.bytesSent }, decisions: events.decisionLines)
    }

    private func mpvRun(
        _ mpv: String, choice: String, _ ladder: LocalLadder, schedule: LinkSchedule, tc: String, log: AccessLog,
        quiet: LinkQuiet, progress: (String) -> Void
    ) async throws(BenchFailure) -> ABRPlay {
        let logFile = NSTemporaryDirectory() + "/playctl-bench-mpv-\(getpid())-\(choice).log"
        defer { unlink(logFile) }
        var arguments = ["--no-config", "--vo=null", "--ao=null", "--hls-bitrate=" + choice, "--log-file=" + logFile]
        if seconds < Self.defaultSeconds { arguments.append("--end=" + BenchText.fixed(seconds, 3)) }
        arguments.append(Self.url(ladder.master))
        let benchCase = BenchCase(tool: "mpv", executable: mpv, arguments: arguments)
        progress("ABR run: mpv --hls-bitrate=\(choice), the link \(schedule.text)")
        quiet.wait()
        let mark = log.mark()
        let result = try await schedule.play(benchCase, tc: tc, timeout: seconds * 3 + 60)
        try Self.check(result, benchCase)
        usleep(200_000)
        let responses = log.responses(since: mark, port: LinkSchedule.port)
        let variants = ABRPlay.followedVariant(responses, ladder: ladder, count: segments(of: ladder))
        return ABRPlay(
            player: "mpv --hls-bitrate=" + choice, command: [mpv] + arguments, wallSeconds: result.wallSeconds,
            stalls: ABRPlay.mpvStalls(log: (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""),
            stallSource: "'Enter buffering' in mpv's --log-file after its start",
            switches: ABRPlay.changes(variants), segmentVariants: variants,
            playedBitsPerSecond: ABRPlay.playedRate(variants, ladder: ladder),
            linkMeanBitsPerSecond: schedule.meanBitsPerSecond(over: result.wallSeconds), requests: responses.count,
            wireBytes: responses.reduce(0) { $0 + $1.bytesSent })
    }

    /// The segments that start within the run's length.
    private func segments(of ladder: LocalLadder) -> Int {
        (0..<ladder.segmentCount).filter { ladder.start(ofSegment: $0) < seconds - 1e-6 }.count
    }

    static func run(_ benchCase: BenchCase, timeout: Double) async throws(BenchFailure) -> ProcessResult {
        let result: ProcessResult
        do {
            result = try await ProcessRunner.run(
                benchCase.executable, benchCase.arguments, standardOutput: .capture, standardError: .capture,
                timeout: timeout)
        } catch {
            throw .failed("cannot run '\(benchCase.commandLine)': \(error)")
        }
        try check(result, benchCase)
        return result
    }

    static func check(_ result: ProcessResult, _ benchCase: BenchCase) throws(BenchFailure) {
        guard result.succeeded else {
            let how =
                result.signal.map { "was killed by signal \($0)" } ?? "exited with status \(result.exitStatus ?? -1)"
            let said = result.errorText.split(separator: "\n").suffix(3).joined(separator: " | ")
            throw .failed("benchmark command '\(benchCase.commandLine)' \(how): \(said)")
        }
    }
}
