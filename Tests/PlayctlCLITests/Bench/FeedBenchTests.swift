import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import CommandLineKit
@testable import PlayctlBench
@testable import PlayctlCLI

/// `playctl-bench run --feed`: what it refuses outside scripts/netns.sh, and the shape of what it prints inside from a
/// quick run on the 12-entry feed-mini folder (never its figures). Its help examples run here, with small counts.
@Suite("playctl-bench run --feed")
struct FeedBenchTests {
    /// What makes a run quick: the small feed of scripts/make-http-media.sh, few swipes.
    static let quick = ["--file", "feed-mini", "--swipes", "3", "--waste-swipes", "1", "--soak-swipes", "10"]

    /// The help's examples of `--feed`.
    static var examples: [[String]] {
        let bench = PlayctlBenchCommands.spec.command(named: "run")!
        return bench.examples.map { $0.commandLine.split(separator: " ").map(String.init) }
            .filter { $0.contains("--feed") }
    }

    /// Why a run of the mini feed cannot happen here (printed), or nil.
    static var miniFeedMissing: String? {
        let root = TestHTTPServer.root ?? Repository.path(".build/http-media")
        guard !FileManager.default.fileExists(atPath: root + "/feed-mini") else { return nil }
        let reason = "no \(root)/feed-mini: run scripts/make-http-media.sh (scripts/netns.sh does)"
        print("WARNING: bench --feed quick runs skipped: \(reason)")
        return reason
    }

    @Test("without the test HTTP server it exits 1, saying to run it through scripts/bench.sh --feed")
    func refusesWithoutTheServer() async throws {
        let result = try await CLIProcess.runWithoutServer(["run", "--feed", "--swipes", "3"], tool: CLIProcess.bench)
        #expect(result.status == 1 && result.standardOutput.isEmpty)
        #expect(
            result.errorLines == [
                "playctl-bench: error: bench --feed measures over the test HTTP server on a shaped loopback, which is not "
                    + "running (PLAYCTL_HTTP is not set): run it through scripts/bench.sh --feed"
            ])
    }

    @Test("--parts' names are the bench's parts")
    func partNamesMatchTheBench() {
        #expect(Set(FeedBenchOptions.partNames) == Set(FeedBench.Part.allCases.map(\.rawValue)))
        #expect(FeedBenchOptions.partNames.count == FeedBench.Part.allCases.count)
    }

    @Test("--parts takes soak, swipe, jump, waste and 3g; another name is a usage error naming the option")
    func partsAreChecked() async throws {
        let result = try await CLIProcess.run(
            ["run", "--feed", "--parts", "soak,swipes"], tool: CLIProcess.bench, timeout: 60)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("--parts") && result.standardError.contains("soak, swipe, jump"))
    }

    @Test("the help shows three --feed examples: the whole bench, the HLS feed and a sweep")
    func examplesListed() {
        #expect(Self.examples.count == 3)
        #expect(Self.examples.contains { $0.contains("--sweep") })
        #expect(Self.examples.contains { $0.contains("hls") })
    }

    @Test(
        "the help's --feed --json example, quick: one object with every trace's runs, the soak and the targets",
        .enabled(if: TestHTTPServer.skipReason == nil && miniFeedMissing == nil, "needs scripts/netns.sh"))
    func reportShape() async throws {
        let example = try #require(Self.examples.first { !$0.contains("--sweep") && !$0.contains("--parts") })
        #expect(example.contains("--json"))
        // Every part but hls, which its own example runs (below): together they were the parallel pass's longest test
        // (264 s of its 265 in CI).
        let parts = FeedBench.Part.allCases.filter { $0 != .hls }.map(\.rawValue).joined(separator: ",")
        let result = try await CLIProcess.run(
            Array(example.dropFirst()) + Self.quick + ["--parts", parts], tool: CLIProcess.bench, timeout: 900)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 1, "one JSON object")
        let report = try JSONValue(parsing: result.standardOutput)
        #expect(report["folder"]?.stringValue == "feed-mini")
        #expect(report["entries"]?.intValue == 12 && report["images"]?.intValue == 4)
        #expect(report["distinctFiles"]?.intValue == 3)
        #expect(report["swipes"]?.intValue == 3 && report["soakSwipes"]?.intValue == 10)
        #expect(report["shaped"]?.boolValue == TestHTTPServer.isShaped)
        let names = { (key: String) in report[key]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] }
        #expect(
            names("swipe") == ["playctl", "naive", "mpv --prefetch-playlist=yes", "mpv --prefetch-playlist=no"])
        #expect(names("competition") == ["playctl", "naive", "mpv --prefetch-playlist=no"])
        #expect(names("cellular") == ["playctl", "naive"])
        // The weak-link trace on another folder than the feed: no renditions run.
        #expect(names("weak") == ["playctl", "mpv --prefetch-playlist=yes"])
        #expect(names("hls").isEmpty)
        for key in ["swipe", "competition", "cellular", "weak"] {
            for run in report[key]?.arrayValue ?? [] {
                let name = run["name"]?.stringValue ?? "?"
                #expect(run["swipes"]?.arrayValue?.count == 3, "\(key) \(name)")
                #expect(run["all"]?["count"]?.intValue == 3, "\(key) \(name)")
                #expect(run["failures"]?.intValue == 0, "\(key) \(name)")
                #expect((run["summary"] == .null) == name.hasPrefix("mpv"), "\(key) \(name)")
            }
        }
        let waste = try #require(report["waste"]?["summary"])
        #expect((waste["bytesFetched"]?.intValue ?? 0) > 0 && (waste["bytesPlayed"]?.intValue ?? 0) > 0)
        let soak = try #require(report["soak"])
        #expect(soak["resident"]?["afterEachSwipe"]?.arrayValue?.count == 10)
        #expect(soak["failures"]?.intValue == 0)
        #expect(soak["end"]?["fileDescriptors"] == soak["start"]?["fileDescriptors"], "\(soak)")
        let targets = try #require(report["targets"]?.arrayValue)
        #expect(
            targets.compactMap { $0["key"]?.stringValue } == [
                "preparedFirstFrameP95", "coldFirstFrameP95OverMPV", "prefetchCompetitionP95Ratio", "wasteRatio",
                "rebufferRatio", "loaderImpressionsOverNaive", "weakBlankSwipes", "weakPreparedFirstFrameP95",
                "weakRenditionsPreparedFirstFrameP95", "weakRenditionsRebufferRatio", "weakRenditionsBytesOverMPV",
                "soakPeakResidentBytes",
                "soakResidentGrowthBytes", "soakExtraDescriptors", "soakExtraThreads",
            ])
        for target in targets {
            #expect(target["target"]?.doubleValue != nil && target["met"]?.boolValue != nil, "\(target)")
        }
    }

    /// The HLS feed's runs, in order.
    static let hlsRuns = [
        "playctl, HLS, 8 Mbit/s", "playctl, HLS, 1.6 Mbit/s", "playctl, 1080p files, 1.6 Mbit/s",
        "mpv --prefetch-playlist=yes, HLS, 8 Mbit/s",
    ]

    @Test(
        "the help's --parts hls example, 3 swipes: four runs, segments fetched over the link, the files as 1080p",
        .enabled(if: TestHTTPServer.skipReason == nil && miniFeedMissing == nil, "needs scripts/netns.sh"))
    func hlsExample() async throws {
        let example = try #require(Self.examples.first { $0.contains("hls") })
        let result = try await CLIProcess.run(
            Array(example.dropFirst()) + ["--file", "feed-mini", "--swipes", "3"], tool: CLIProcess.bench,
            timeout: 600)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONValue(parsing: result.standardOutput)
        let runs = try #require(report["hls"]?.arrayValue)
        #expect(runs.compactMap { $0["name"]?.stringValue } == Self.hlsRuns)
        for run in runs {
            let name = run["name"]?.stringValue ?? "?"
            #expect(run["swipes"]?.arrayValue?.count == 3 && run["failures"]?.intValue == 0, "\(name)")
            #expect((run["bytesOnWire"]?.intValue ?? 0) > 0, "\(name): bytes counted from nginx's log")
            let segments = run["segmentsByRendition"]?.objectValue ?? []
            let total = segments.reduce(0) { $0 + ($1.1.intValue ?? 0) }
            // The opening item and three swipes to items of their own: at least one segment (or range) each.
            #expect(total >= 4, "\(name): \(segments)")
            if name.contains("files") { #expect(segments.map(\.0) == ["1080p"], "\(name)") }
        }
        let targets = try #require(report["targets"]?.arrayValue)
        #expect(
            targets.compactMap { $0["key"]?.stringValue } == [
                "preparedFirstFrameP95", "coldFirstFrameP95OverMPV", "prefetchCompetitionP95Ratio", "wasteRatio",
                "rebufferRatio", "loaderImpressionsOverNaive", "hlsPreparedFirstFrameP95",
                "hlsImpressionsOverProgressive",
            ])
    }

    @Test(
        "the help's --sweep example on the mini feed: a row per point and the naive baseline, the best one marked",
        .enabled(if: miniFeedMissing == nil, "needs .build/http-media/feed-mini"))
    func sweepExample() async throws {
        let example = try #require(Self.examples.first { $0.contains("--sweep") })
        let result = try await CLIProcess.run(
            Array(example.dropFirst()) + ["--file", "feed-mini"], tool: CLIProcess.bench, timeout: 600)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.first?.hasPrefix("playctl-bench run --feed --sweep: feed-mini/ (12 entries), 20 swipes") == true)
        #expect(lines.contains { $0.hasSuffix("naive (budget 0, nothing prepared)") })
        #expect(lines.filter { $0.contains(" first pict. ") }.count == 2, "\(lines.joined(separator: "\n"))")
        #expect(lines.filter { $0.contains("<- best") }.count == 1)
        #expect(lines.contains { $0.contains("defaults") })
    }
}
