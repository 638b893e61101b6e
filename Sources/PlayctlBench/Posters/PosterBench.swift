import Foundation
import Loading
import PlaybackTesting
import PlayctlOutput
import Posters

/// `playctl-bench run --posters`: the poster pipeline against ffmpeg, in one run.
///
/// 1. The first-frame poster of a 720p H.264 clip (`hd.mp4` of scripts/make-http-media.sh), local and, when
///    scripts/netns.sh's server runs, over its 8 Mbit/s link: `playctl poster F --size 320x180 -o out.png` against
///    `ffmpeg -i F -frames:v 1 -vf scale=320:180 out.png`, both as processes timed from start to exit, alternating,
///    each remote run cold (a new process, an empty cache) on an idle link; p50 and p95 of each and their ratio.
///    Also the pipeline's own time in this process (a new pipeline and cache for each run).
/// 2. A batch of 300 requests drawn (seeded) from a smaller set of distinct keys (the committed clips at several
///    times and sizes, the still, the 720p clip, and the served clips under distinct URLs when the server runs):
///    `playctl poster --batch LIST --size 132x132 --json` as one process. The pipeline must fetch each distinct key
///    once (fetches = distinct keys), and its peak memory stay within the cache's limit plus a fixed overhead,
///    stated as what a single poster process takes.
public struct PosterBench: Sendable {
    /// The width and height posters are scaled to in part 1.
    public static let size = (width: 320, height: 180)
    /// Requests in the batch.
    public static let batchSize = 300

    public let runs: Int
    public let playctl: String

    public init(runs: Int, playctl: String = BenchTools.playctl()) {
        self.runs = runs
        self.playctl = playctl
    }

    /// The 720p clip: the served folder's copy, or .build/http-media's (made by scripts/make-http-media.sh).
    static func clipPath() -> String? {
        let candidates = [TestHTTPServer.root.map { $0 + "/hd.mp4" }, ".build/http-media/hd.mp4"].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Measures both parts, saying each step on `progress`.
    /// - Throws: `BenchFailure` when ffmpeg or the clip is missing, or a command fails.
    public func run(progress: @Sendable (String) -> Void) async throws(BenchFailure) -> PosterReport {
        let loadBefore = LoadAverage.oneMinute()
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { throw .failed("ffmpeg is not in PATH") }
        guard let clip = Self.clipPath() else {
            throw .failed("no 720p clip: run scripts/make-http-media.sh (scripts/bench.sh --posters does)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playctl-poster-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.png").path
        let quiet = LinkQuiet.find(shaped: TestHTTPServer.isShaped)
        var sources = [("local", clip)]
        if TestHTTPServer.isAvailable { sources.append(("8 Mbit/s", TestHTTPServer.url("hd.mp4", over: .mbit8))) }

        var firstFrame: [PosterReport.FirstFrame] = []
        for (label, source) in sources {
            progress("first-frame poster, \(label): \(runs) runs of each")
            let remote = RemoteLoading.isRemote(source)
            let cases = [
                BenchCase(
                    tool: "playctl", executable: playctl,
                    arguments: ["poster", source, "--size", "\(Self.size.width)x\(Self.size.height)", "-o", out]),
                BenchCase(
                    tool: "ffmpeg", executable: ffmpeg,
                    arguments: [
                        "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", source, "-frames:v", "1", "-vf",
                        "scale=\(Self.size.width):\(Self.size.height)", out,
                    ]),
            ]
            let timings = try BenchRunner.measure(
                cases, runs: runs, progress: { _ in }, beforeEachRun: { if remote { quiet.wait() } })
            var inProcess: [Double] = []
            for _ in 0..<runs {
                if remote { quiet.wait() }
                let pipeline = PosterPipeline(loading: RemoteLoading(cache: ByteCache()))
                let request = PosterRequest(source: source, width: Self.size.width, height: Self.size.height)
                do throws(MediaError) {
                    inProcess.append(try await pipeline.poster(for: request).timings.total)
                } catch {
                    throw .failed("\(source): \(error)")
                }
            }
            firstFrame.append(
                PosterReport.FirstFrame(
                    label: label, source: source, playctl: timings[0].wallSeconds, ffmpeg: timings[1].wallSeconds,
                    pipeline: inProcess))
        }

        progress("batch of \(Self.batchSize) requests")
        let (lines, distinct) = Self.batchList(clip: clip)
        let list = directory.appendingPathComponent("list.txt").path
        try? lines.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let single = try Self.runChecked(playctl, ["poster", clip, "--size", "132x132", "-o", out])
        let batch = try Self.runChecked(playctl, ["poster", "--batch", list, "--size", "132x132", "--json"])
        guard let summaryLine = batch.outputText.split(separator: "\n").last,
            let summary = try? JSONSerialization.jsonObject(with: Data(summaryLine.utf8)) as? [String: Any]
        else { throw .failed("poster --batch printed no summary") }
        let stages = (summary["stages"] as? [String: [String: Any]]) ?? [:]
        return PosterReport(
            runs: runs, firstFrame: firstFrame,
            batch: PosterReport.Batch(
                requests: lines.count, distinctKeys: distinct, fetches: summary["fetches"] as? Int ?? -1,
                joined: summary["joined"] as? Int ?? -1, cacheHits: summary["cacheHits"] as? Int ?? -1,
                wallSeconds: batch.wallSeconds, peakRSSKiB: batch.peakRSSKiB,
                singlePeakRSSKiB: single.peakRSSKiB, cacheLimitBytes: PosterCache.defaultCostLimit,
                totalP50Ms: (stages["total"]?["p50Ms"] as? Double) ?? .nan,
                totalP95Ms: (stages["total"]?["p95Ms"] as? Double) ?? .nan),
            loadAverage: (before: loadBefore, after: LoadAverage.oneMinute()))
    }

    /// 300 lines drawn from the distinct keys (seeded), and how many distinct keys they name.
    static func batchList(clip: String) -> (lines: [String], distinct: Int) {
        var keys: [String] = []
        for name in ["a.mp4", "b.mp4", "c.webm", "rotated.mp4", "offset.ts"] {
            let path = MediaFixtures.path(name)
            keys += [path, "\(path) 0.5", "\(path) 1"]
        }
        keys += [MediaFixtures.path("still.jpg"), clip, "\(clip) 2", "\(clip) 4"]
        if TestHTTPServer.isAvailable {
            for n in 0..<20 {
                let name = ["a.mp4", "b.mp4", "c.webm", "hd.mp4"][n % 4]
                keys.append(TestHTTPServer.url(name, over: .unshaped) + "?v=\(n)")
            }
        }
        var random = SplitMix64(seed: 300)
        let lines = (0..<batchSize).map { _ in keys[Int(random.next() % UInt64(keys.count))] }
        return (lines, Set(lines).count)
    }

    static func runChecked(_ executable: String, _ arguments: [String]) throws(BenchFailure) -> ProcessResult {
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(
                executable, arguments, standardOutput: .capture, standardError: .capture, timeout: 600)
        } catch {
            throw .failed("\(executable) could not run: \(error)")
        }
        guard result.succeeded else {
            throw .failed("\(([executable] + arguments).joined(separator: " ")) failed: \(result.errorText)")
        }
        return result
    }
}
