import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed` spawned as a user would: a real-time run over the committed clips, its JSON Lines and text read
/// back, its mistakes, and a feed over HTTP.
@Suite("playctl feed: runs")
struct FeedCLITests {
    /// The names `--json` prints, besides the summary.
    static let eventNames: Set<String> = [
        "feed.visible", "feed.active", "feed.prefetch", "feed.prepared", "feed.firstFrame", "feed.started",
        "feed.stall",
        "feed.failed", "pool.acquire", "pool.release", "feed.trimmed", "feed.rendition", "feed.poster",
        "feed.picture", "feed.pageRequested", "feed.page", "feed.pageFailed", "feed.pagesEnded", "feed.capped",
        "feed.sized", "feed.sizeProbeFailed",
    ]

    static func events(_ result: CLIProcess.Result) throws -> [JSONValue] {
        try result.outputLines.map { try JSONValue(parsing: $0) }
    }

    /// Checks a `--json` run's lines: known events with time and index, the summary last, one activation per swipe
    /// onto an item (the first included), and a first frame for every item that became active. Returns the events.
    @discardableResult
    static func checkRun(
        _ result: CLIProcess.Result, swipes: Int, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> [JSONValue]
    {
        #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
        let events = try Self.events(result)
        let summary = try #require(events.last, sourceLocation: sourceLocation)
        #expect(summary["event"]?.stringValue == "feed.summary", sourceLocation: sourceLocation)
        for event in events.dropLast() {
            let name = event["event"]?.stringValue ?? ""
            #expect(Self.eventNames.contains(name), "\(event.serialized())", sourceLocation: sourceLocation)
            #expect(
                event["time"]?.doubleValue != nil && event["index"]?.intValue != nil, sourceLocation: sourceLocation)
        }
        func indices(_ name: String) -> [Int] {
            events.filter { $0["event"]?.stringValue == name }.compactMap { $0["index"]?.intValue }
        }
        #expect(summary["swipes"]?.intValue == swipes, sourceLocation: sourceLocation)
        #expect(summary["activations"]?.intValue == swipes + 1, sourceLocation: sourceLocation)
        #expect(indices("feed.visible").count == swipes + 1, sourceLocation: sourceLocation)
        #expect(indices("feed.active") == indices("feed.visible"), sourceLocation: sourceLocation)
        #expect(Set(indices("feed.firstFrame")) == Set(indices("feed.active")), sourceLocation: sourceLocation)
        // What each cell showed as it became active; the swipes that showed nothing, counted.
        #expect(Set(indices("feed.picture")) == Set(indices("feed.active")), sourceLocation: sourceLocation)
        let blank = events.filter { $0["event"]?.stringValue == "feed.picture" }.dropFirst().filter {
            $0["picture"]?.stringValue == "nothing"
        }
        #expect(summary["blankSwipes"]?.intValue == blank.count, sourceLocation: sourceLocation)
        #expect(summary["firstFrame"]?["count"]?.intValue == swipes + 1, sourceLocation: sourceLocation)
        #expect(summary["failures"]?.intValue == 0, sourceLocation: sourceLocation)
        for key in ["rebufferRatio", "wasteRatio", "loaderImpressionsPer1000", "watchedSeconds", "stallSeconds"] {
            #expect(summary[key]?.doubleValue != nil, "\(key)", sourceLocation: sourceLocation)
        }
        #expect((summary["peakMemory"]?.intValue ?? 0) > 0, sourceLocation: sourceLocation)
        return events
    }

    @Test("Media --swipes 3 --dwell 0.5 --json: the events as they happen, then a summary of 4 activations")
    func jsonRun() async throws {
        // Under a sanitizer the first item's first frame took more than the half second's dwell (CI's
        // ThreadSanitizer pass): there the dwell is 2 s.
        let dwell = Sanitizers.isActive ? 2.0 : 0.5
        let result = try await CLIProcess.run(
            ["feed", MediaFixtures.directory.path, "--swipes", "3", "--dwell", "\(dwell)", "--json"], timeout: 60)
        let events = try Self.checkRun(result, swipes: 3)
        let expected = FeedScroll.generated(entries: 6, swipes: 3, dwell: dwell, seed: 1)
        let visible = events.filter { $0["event"]?.stringValue == "feed.visible" }
        #expect(visible.compactMap { $0["index"]?.intValue } == expected.steps.map(\.index))
        #expect(visible.first?["url"]?.stringValue == MediaFixtures.path("a.mp4"))
        #expect(visible.first?["kind"]?.stringValue == "video")
        let names = Set(events.compactMap { $0["event"]?.stringValue })
        #expect(names.isSuperset(of: ["feed.prepared", "pool.acquire", "pool.release", "feed.firstFrame"]))
        #expect(!names.contains("feed.rendition"), "entries without renditions choose none")
        let summary = try #require(events.last)
        #expect(summary["bytesFetched"]?.intValue == 0, "local files")
        #expect((summary["preparedFirstFrame"]?["count"]?.intValue ?? 0) >= 1, "the next video was prepared")
        #expect(abs((summary["time"]?.doubleValue ?? 0) - expected.end) < 0.5, "it waited the dwells")
        #expect(result.standardError.contains("tone.m4a left out: audio only"), "\(result.standardError)")
    }

    @Test("text: a header, a line per swipe under the column titles, then the summary")
    func textRun() async throws {
        let result = try await CLIProcess.run(
            ["feed", MediaFixtures.directory.path, "--swipes", "2", "--dwell", "1", "--seed", "5", "--no-audio"],
            timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.outputLines
        #expect(lines.first?.hasPrefix("feed \(MediaFixtures.directory.path): 6 entries (5 videos, 1 image)") == true)
        #expect(lines.dropFirst().first?.contains("first frame") == true)
        let swipeLines = lines.dropFirst(2).prefix { !$0.hasPrefix("summary:") }
        #expect(swipeLines.count == 3, "\(lines.joined(separator: "\n"))")
        #expect(swipeLines.first?.contains("#0 a.mp4") == true && swipeLines.first?.contains("first") == true)
        #expect(swipeLines.allSatisfy { $0.contains(" ms ") }, "a first frame for every item")
        let summary = lines.drop { !$0.hasPrefix("summary:") }
        #expect(summary.first?.hasPrefix("summary: 3 activations in ") == true, "\(summary)")
        for label in [
            "first frame", "prepared", "cold", "stalls", "bytes", "loader", "prefetches", "pool", "peak memory",
        ] {
            #expect(summary.contains { $0.hasPrefix("  ") && $0.contains(label) }, "\(label)")
        }
    }

    @Test("a manifest or script that cannot be used: exit 1, one line naming the file")
    func badInput() async throws {
        let missing = try await CLIProcess.run(["feed", "/nonexistent/feed.json"], timeout: 30)
        #expect(missing.status == 1 && missing.standardOutput.isEmpty)
        #expect(
            missing.standardError == "playctl: error: /nonexistent/feed.json: cannot read: No such file or directory\n")
        let script = try await CLIProcess.run(
            ["feed", MediaFixtures.directory.path, "--script", MediaFixtures.path("feed.json")], timeout: 30)
        #expect(script.status == 1)
        #expect(
            script.standardError.hasSuffix(
                "playctl: error: \(MediaFixtures.path("feed.json")): expected an array of steps "
                    + "{\"at\": seconds, \"index\": i}\n"), "\(script.standardError)")
        let outOfRange = try await CLIProcess.run(
            ["feed", MediaFixtures.directory.path, "--script", MediaFixtures.path("feed-script.json")], timeout: 30)
        #expect(outOfRange.status == 1)
        #expect(
            outOfRange.standardError.hasSuffix(
                "playctl: error: \(MediaFixtures.path("feed-script.json")): [3].index: 7 is out of range: the feed has "
                    + "6 entries\n"), "\(outOfRange.standardError)")
    }

    @Test("an item that fails: the feed goes on past it, prints the summary, then exits 1 naming the item")
    func failingItem() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        let manifest = folder.appendingPathComponent("feed.json")
        let entries = [MediaFixtures.path("a.mp4"), "missing.mp4", MediaFixtures.path("b.mp4")].map { url in
            #"{"url": "\#(url)", "kind": "video"}"#
        }
        try Data(("[" + entries.joined(separator: ", ") + "]").utf8).write(to: manifest)
        let result = try await CLIProcess.run(
            ["feed", manifest.path, "--swipes", "2", "--dwell", "0.4", "--json"], timeout: 60)
        #expect(result.status == 1)
        let events = try Self.events(result)
        let summary = try #require(events.last)
        #expect(summary["event"]?.stringValue == "feed.summary" && summary["failures"]?.intValue == 1)
        #expect(summary["activations"]?.intValue == 3, "the failed item counts when scrolled onto")
        #expect(events.contains { $0["event"]?.stringValue == "feed.failed" && $0["index"]?.intValue == 1 })
        #expect(events.contains { $0["event"]?.stringValue == "feed.firstFrame" && $0["index"]?.intValue == 2 })
        #expect(
            result.standardError.hasPrefix(
                "playctl: error: 1 item of the feed failed; the first, #1 missing.mp4: \(folder.path)/missing.mp4: "),
            "\(result.standardError)")
    }

    @Test(
        "over HTTP: the clips served by the test server, fetched through the byte cache",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
    func overHTTP() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        let clips = ["a.mp4", "b.mp4", "still.jpg", "c.webm", "rotated.mp4", "offset.ts"]
        let entries = clips.map { clip -> JSONValue in
            .object([("url", .string(TestHTTPServer.url(clip))), ("kind", clip.hasSuffix(".jpg") ? "image" : "video")])
        }
        let manifest = folder.appendingPathComponent("feed.json")
        try Data(JSONValue.object([("entries", .array(entries))]).serialized().utf8).write(to: manifest)
        let cache = folder.appendingPathComponent("cache").path
        let result = try await CLIProcess.run(
            ["feed", manifest.path, "--swipes", "3", "--dwell", "2", "--json", "--cache-dir", cache], timeout: 120)
        let events = try Self.checkRun(result, swipes: 3)
        let summary = try #require(events.last)
        #expect((summary["bytesFetched"]?.intValue ?? 0) > 0, "\(summary.serialized())")
        #expect((summary["bytesPlayed"]?.intValue ?? 0) > 0, "\(summary.serialized())")
        #expect(events.contains { $0["event"]?.stringValue == "feed.prefetch" })
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).isEmpty, "the disk tier")
    }
}
