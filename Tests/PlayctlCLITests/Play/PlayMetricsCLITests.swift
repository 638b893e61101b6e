import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("playctl play: metric events in --json and --metrics-out")
struct PlayMetricsCLITests {
    static let context = ["event", "host", "time", "item", "date", "mediaTime", "sessionID"]

    @Test func seeksPrintRequestAndCompletionPairs() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let metricsFile = directory.appendingPathComponent("metrics.jsonl").path
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--seek", "1@0.5", "--seek", "3@2", "--json", "--untimed",
            "--no-audio", "--metrics-out", metricsFile,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let values = try JSONValue.parseLines(result.standardOutput)
        func named(_ name: String) -> [JSONValue] { values.filter { $0["event"]?.stringValue == name } }

        let seeks = named("metric.seek")
        let completions = named("metric.seekDidComplete")
        #expect(seeks.map { $0["id"] } == [.int(1), .int(2)])
        #expect(completions.map { $0["id"] } == [.int(1), .int(2)])
        #expect(Set(seeks.compactMap { $0["requestedTime"]?.doubleValue }) == [1, 3])
        for (seek, completion) in zip(seeks, completions) {
            let request = try #require(values.firstIndex(of: seek))
            let done = try #require(values.firstIndex(of: completion))
            #expect(request < done)
            #expect(seek["sessionID"] == completion["sessionID"])
            if completion["finished"] == .bool(true) {
                #expect(completion["landedTime"] == seek["requestedTime"], "exact seeks land where asked")
            }
        }
        #expect(completions.last?["finished"] == .bool(true))
        #expect(seeks.first?.keys == Self.context + ["id", "requestedTime", "fromTime", "tolerance", "origin"])
        #expect(
            completions.first?.keys == Self.context + [
                "id", "finished", "landedTime", "didSeekInBuffer", "latency", "elapsedTime", "framesDecoded",
                "framesSkipped", "framesDiscarded",
            ])
        #expect(named("metric.firstFrame").first?.keys == Self.context + ["latency", "elapsedTime"])
        #expect(named("metric.rateChange").first?.keys == Self.context + ["rate", "previousRate", "reason"])
        #expect(named("metric.likelyToKeepUp").first?.keys == Self.context + ["timeTaken", "isInitial"])
        let summaries = named("metric.summary")
        try #require(summaries.count == 1)
        #expect(
            summaries[0].keys == Self.context + [
                "stallCount", "seekCount", "startupTime", "startupElapsedTime", "stallRecoveryTime", "framesRendered",
                "framesDropped", "playbackDuration",
            ])
        #expect(summaries[0]["seekCount"] == .int(2))
        #expect(named("metric.hang").isEmpty)
        #expect(named("metric.seek").first?["date"]?.stringValue?.hasSuffix("Z") == true)

        // The run's summary comes last, after the session's metric summary.
        let last = try #require(values.last)
        #expect(last["event"]?.stringValue == "summary")
        #expect(values.dropLast().last?["event"]?.stringValue == "metric.summary")
        #expect(last["seekLatencyP50Ms"]?.doubleValue != nil && last["seekLatencyP95Ms"]?.doubleValue != nil)
        #expect(last["startupMs"]?.doubleValue != nil && last["firstFrameMs"]?.doubleValue != nil)

        // The metrics file holds exactly the metric lines, as JSON Lines.
        let file = try JSONValue.parseLines(String(contentsOfFile: metricsFile, encoding: .utf8))
        #expect(file == values.filter { $0["event"]?.stringValue?.hasPrefix("metric.") == true })
    }

    @Test func readableSummaryGivesSeekPercentilesAndStartup() async throws {
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("b.mp4"), "--seek", "1@0.5", "--seek", "3@1.5", "--untimed", "--no-audio",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try #require(result.outputLines.last)
        #expect(summary.hasPrefix("summary: "), "\(summary)")
        #expect(summary.contains("startup "))
        #expect(summary.contains("2 seeks, latency p50 "))
        #expect(summary.contains(" p95 "))
        #expect(result.outputLines.contains { $0.contains("metric.seekDidComplete") && $0.contains("id=2") })
    }

    @Test func percentilesUseTheNearestRank() {
        #expect(MetricTally.percentile(0.5, of: [4, 1, 3, 2]) == 2)
        #expect(MetricTally.percentile(0.95, of: [4, 1, 3, 2]) == 4)
        #expect(MetricTally.percentile(0.5, of: [7]) == 7)
        #expect(MetricTally.percentile(0.5, of: []) == nil)
    }
}

@Suite("playctl play: engine latencies are real time in every clock mode")
struct RealLatencyCLITests {
    @Test("under --untimed the first frame, startup and seek latencies are not zero; the clock's latency is")
    func untimedLatencies() async throws {
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--untimed", "--seek", "1@0.5", "--json",
        ])
        #expect(result.status == 0)
        let objects = result.outputLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let first = try #require(objects.first { $0["event"] as? String == "metric.firstFrame" })
        #expect(first["latency"] as? Double == 0, "the untimed clock does not move while the engine works")
        #expect((first["elapsedTime"] as? Double ?? 0) > 0, "but real time does")
        let seek = try #require(objects.first { $0["event"] as? String == "metric.seekDidComplete" })
        #expect((seek["elapsedTime"] as? Double ?? 0) > 0)
        let summary = try #require(objects.last)
        #expect((summary["firstFrameMs"] as? Double ?? 0) > 0 && (summary["startupMs"] as? Double ?? 0) > 0)
    }
}

@Suite("playctl play: the readable log reads top to bottom")
struct ReadableOrderCLITests {
    @Test(
        "the picture in picture demo: each line starts with the run's time, never going back; the item and its time follow"
    )
    func pipDemo() async throws {
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--pip", "--swap", MediaFixtures.path("b.mp4"),
        ])
        #expect(result.status == 0)
        let times = result.outputLines.compactMap { line -> Double? in
            guard !line.hasPrefix("summary") else { return nil }
            return Double(line.split(separator: " ").first.map(String.init) ?? "")
        }
        #expect(times.count > 20)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(result.standardOutput)")
        #expect(result.outputLines.contains { $0.contains("item.didPlayToEnd b.mp4@4.000") })
    }
}
