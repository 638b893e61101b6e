import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed --network cellular` over nginx with an entry whose manifest size is over the cellular autoload cap:
/// nginx's access log has no request for it (its poster picture alone) until a script step taps it.
@Suite("playctl feed: byte caps over HTTP")
struct FeedCapCLITests {
    /// Runs a feed of four copies of a.mp4 (item 1 said to be 40 MiB, each naming a poster picture) on cellular:
    /// on item 0, then item 1 from 1 s, tapped at 2.5 s when `tap`; returns the events and the run's marker.
    static func run(tap: Bool) async throws -> (events: [JSONValue], marker: String) {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed-cap")
        defer { TemporaryDirectory.remove(folder) }
        let marker = "feed-cap-\(UInt32.random(in: 0...UInt32.max))"
        let entries = (0..<4).map { index -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("url", .string(TestHTTPServer.url("a.mp4?\(marker)-\(index)"))), ("kind", "video"),
                ("poster", .string(TestHTTPServer.url("still.jpg?\(marker)-poster-\(index)"))),
            ]
            if index == 1 { members.append(("size", .int(40 << 20))) }
            return .object(members)
        }
        let manifest = folder.appendingPathComponent("feed.json")
        try Data(JSONValue.array(entries).serialized().utf8).write(to: manifest)
        let steps =
            #"[{"at": 0, "index": 0}, {"at": 1, "index": 1, "speed": 1}"#
            + (tap ? #", {"at": 2.5, "index": 1, "tap": true}, {"at": 5}]"# : #", {"at": 2.5}]"#)
        let script = folder.appendingPathComponent("script.json")
        try Data(steps.utf8).write(to: script)
        let result = try await CLIProcess.run(
            [
                "feed", manifest.path, "--script", script.path, "--network", "cellular", "--json", "--no-audio",
            ], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        return (try FeedCLITests.events(result), marker)
    }

    static func named(_ name: String, _ events: [JSONValue], index: Int) -> [JSONValue] {
        events.filter { $0["event"]?.stringValue == name && $0["index"]?.intValue == index }
    }

    @Test(
        "cellular: the capped item's poster is fetched, not one byte of its video; feed.capped says so",
        .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
    func untapped() async throws {
        let (events, marker) = try await Self.run(tap: false)
        let capped = Self.named("feed.capped", events, index: 1)
        #expect(capped.count == 1, "\(events.map { $0.serialized() })")
        #expect(capped.first?["bytes"]?.intValue == 40 << 20 && capped.first?["cap"]?.intValue == 20 << 20)
        #expect(Self.named("feed.active", events, index: 1).isEmpty)
        let poster = await TestHTTPServer.responses(containing: "\(marker)-poster-1 ", atLeast: 1)
        #expect(!poster.isEmpty, "its poster picture was asked for")
        // The other items' videos were fetched (the log is written): item 1's never.
        #expect(!(await TestHTTPServer.responses(containing: "\(marker)-0 ", atLeast: 1)).isEmpty)
        let video = await TestHTTPServer.responses(containing: "\(marker)-1 ", atLeast: 1, within: 1)
        #expect(video.isEmpty, "\(video)")
        // The summary counts it, untapped; the three others told no size: sized with a HEAD each (under the cap).
        let summary = try #require(events.last)
        #expect(summary["event"]?.stringValue == "feed.summary")
        #expect(summary["cappedItems"]?.intValue == 1 && summary["cappedItemsTapped"]?.intValue == 0)
        #expect(summary["sizeProbes"]?.intValue == 3 && summary["sizeProbeFailures"]?.intValue == 0)
        let heads = TestHTTPServer.responses(containing: marker).filter { $0.request.hasPrefix("HEAD /a.mp4") }
        #expect(Set(heads.map { $0.request.split(separator: " ")[1] }).count == 3, "\(heads)")
        #expect(events.filter { $0["event"]?.stringValue == "feed.sized" }.count == 3)
    }

    @Test(
        "cellular: a script's tap loads the capped item, which becomes active and asks for its video",
        .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
    func tapped() async throws {
        let (events, marker) = try await Self.run(tap: true)
        #expect(Self.named("feed.capped", events, index: 1).count == 1)
        let active = try #require(
            Self.named("feed.active", events, index: 1).first, "\(events.map { $0.serialized() })")
        #expect((active["time"]?.doubleValue ?? 0) >= 2.4, "active at the tap: \(active.serialized())")
        // Its first frame within the 2.5 s left of the script would judge real time: the tapped item's first frame
        // is judged in virtual time (FeedByteCapScenarioTests); here, its video asked for, and no frame before the tap.
        #expect(!(await TestHTTPServer.responses(containing: "\(marker)-1 ", atLeast: 1)).isEmpty)
        let frame = Self.named("feed.firstFrame", events, index: 1).first
        #expect((frame?["time"]?.doubleValue ?? 2.5) >= 2.4, "no frame before the tap: \(frame?.serialized() ?? "")")
        let summary = try #require(events.last)
        #expect(summary["cappedItems"]?.intValue == 1 && summary["cappedItemsTapped"]?.intValue == 1)
    }

    @Test("the readable line of a capped swipe: `capped`, then `tapped` once it became active")
    func line() {
        let text = FeedText(
            entries: [FeedEntry(url: "http://x/a.mp4", kind: .video), FeedEntry(url: "http://x/b.mp4", kind: .video)],
            flingSpeed: 4)
        var swipe = FeedSwipe(number: 1, index: 1, time: 1, speed: 1, firstSequenceNumber: 0)
        swipe.record(FeedEvent(kind: .capped(index: 1, bytes: 40 << 20, cap: 20 << 20), time: 1, sequenceNumber: 1))
        #expect(text.line(swipe).contains(" capped "), "\(text.line(swipe))")
        swipe.record(
            FeedEvent(kind: .active(index: 1, prepared: false, hasFrame: false), time: 2, sequenceNumber: 2))
        #expect(text.line(swipe).contains(" tapped "), "\(text.line(swipe))")
    }
}
