import Feed
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench

/// `bench --feed`'s report from made-up runs: which figure is held to which target, and how a swipe with no frame
/// counts.
@Suite("bench --feed's report")
struct FeedReportTests {
    static func run(
        _ name: String, _ latencies: [Double?], prepared: Bool = false, summary: FeedSummary? = nil
    ) -> SwipeRun {
        var run = SwipeRun(name: name)
        run.swipes = latencies.enumerated().map { offset, latency in
            SwipeRun.Swipe(index: offset + 1, latency: latency, prepared: prepared, hadFrame: prepared, dwell: 2)
        }
        run.summary = summary
        return run
    }

    static func report() -> FeedReport {
        let media = FeedMedia(
            folder: "feed", directory: "/srv/feed",
            files: [
                FeedMedia.File(
                    name: "000.mp4", kind: .video, bytes: 1000, duration: 8, width: 1280, height: 720, inode: 1),
                FeedMedia.File(name: "001.jpg", kind: .image, bytes: 100, inode: 2),
            ])
        let tools = BenchTools(
            ffmpeg: "/usr/bin/ffmpeg", ffmpegVersion: "ffmpeg version 5.1", mpv: "/usr/bin/mpv",
            mpvVersion: "mpv 0.35.1", cpuCount: 2)
        let bench = FeedBench(folder: nil, swipes: 4, wasteSwipes: 2, soakSwipes: 100, seed: 1)
        var report = FeedReport(bench: bench, media: media, tools: tools, shaped: true)
        var waste = FeedSummary()
        waste.bytesFetched = 1100
        waste.bytesPlayed = 1000
        waste.watchedSeconds = 100
        waste.stallSeconds = 1
        var feed3G = FeedSummary()
        feed3G.activations = 10
        feed3G.loaderImpressions = 7
        var naive3G = FeedSummary()
        naive3G.activations = 10
        naive3G.loaderImpressions = 10
        report.swipe = [
            run("playctl", [0.010, 0.020, 0.030, 0.031], prepared: true, summary: FeedSummary()),
            run("naive", [0.3, 0.4, 0.5, 0.6], summary: FeedSummary()),
            run("mpv --prefetch-playlist=yes", [0.1, 0.2, 0.1, 0.2]),
            run("mpv --prefetch-playlist=no", [0.3, 0.3, 0.3, 0.3]),
        ]
        report.competition = [
            run("playctl", [0.4, 0.4, 0.4, nil], summary: FeedSummary()),
            run("naive", [0.4, 0.4, 0.4, 0.5], summary: FeedSummary()),
            run("mpv --prefetch-playlist=no", [0.3, 0.3, 0.3, 0.4]),
        ]
        report.waste = run("playctl", [0.01, 0.01], prepared: true, summary: waste)
        report.cellular = [run("playctl", [1, 1], summary: feed3G), run("naive", [2, 2], summary: naive3G)]
        return report
    }

    @Test("every figure against its target; a swipe with no frame counts as its dwell")
    func targets() throws {
        let report = Self.report()
        let targets = Dictionary(uniqueKeysWithValues: report.targets.map { ($0.key, $0) })
        #expect(targets.count == 6, "no soak, no soak figures")
        #expect(targets["preparedFirstFrameP95"]?.value == 0.031 && targets["preparedFirstFrameP95"]?.met == true)
        // Trace 2: playctl's missing frame counts as 2 s, its p95.
        #expect(report.competition[0].missed(.all) == 1)
        #expect(targets["coldFirstFrameP95OverMPV"]?.value == 2 / 0.4)
        #expect(targets["coldFirstFrameP95OverMPV"]?.met == false)
        #expect(targets["prefetchCompetitionP95Ratio"]?.value == 2 / 0.5)
        #expect(abs((targets["wasteRatio"]?.value ?? 0) - 0.1) < 1e-12 && targets["wasteRatio"]?.met == true)
        #expect(targets["rebufferRatio"]?.value == 0.01 && targets["rebufferRatio"]?.met == false)
        #expect(
            targets["loaderImpressionsOverNaive"]?.value == 0.7 && targets["loaderImpressionsOverNaive"]?.met == true)
        let text = report.textLines.joined(separator: "\n")
        #expect(text.contains("prepared items p95: 31.0 ms (target <= 33.0 ms: met)"), "\(text)")
        #expect(text.contains("playctl p95 / mpv --prefetch-playlist=no p95: 5.000x (target <= 1.000x: NOT met)"))
        #expect(text.contains("waste: 10.00% (target <= 15.00%: met)"))
        #expect(text.contains("rebuffer: 1.00% (target <= 0.50%: NOT met)"))
        #expect(text.contains("playctl / naive: 0.700x (target <= 0.800x: met)"))
        #expect(text.contains("Targets: 3 of 6 met"))
        let json = report.json
        #expect(json["targets"]?.arrayValue?.count == 6)
        #expect(json["competition"]?[0]?["noFrame"]?.intValue == 1)
        #expect(json["swipe"]?[0]?["prepared"]?["count"]?.intValue == 4)
    }

    @Test("the soak's growth compares the mean after the warm-up with the mean at the end")
    func soakGrowth() {
        var soak = FeedSoakReport(swipes: 1000)
        // 300 warm-up swipes at 50 MB, then 100 MB alternating +-10 MB, the last 350 at 101 MB +-10 MB.
        soak.resident = (0..<1000).map { swipe in
            let wobble = swipe % 2 == 0 ? 10 << 20 : -(10 << 20)
            if swipe < 300 { return 50 << 20 }
            return (swipe >= 650 ? 101 << 20 : 100 << 20) + wobble
        }
        #expect(soak.warmUp == 300 && soak.windowSize == 350)
        #expect(soak.earlyResident == 100 << 20 && soak.lateResident == 101 << 20)
        #expect(soak.growth == 1 << 20)
    }
}
