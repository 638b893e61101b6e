import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Streaming
import Testing

@testable import PlayctlCLI

/// `playctl feed` with entries listing progressive renditions: the manifest's `"renditions"`, its mistakes, and
/// runs whose `--json` names the rendition each item plays (scripts/make-http-media.sh's renditions/feed.json: a
/// 360p and a 720p copy of a.mp4 per entry).
@Suite("playctl feed: renditions")
struct FeedRenditionCLITests {
    @Test("renditions: read in order, resolved against the manifest's folder; without a url, the first one names it")
    func manifest() throws {
        let text = """
            [{"kind": "video", "renditions": [
                {"url": "low.mp4", "bitrate": 500000, "width": 640, "height": 360, "size": 1000},
                {"url": "http://example.com/high.mp4", "bitrate": 1500000}]},
             {"url": "plain.mp4", "kind": "video"}]
            """
        try FeedManifestTests.withFile("feed.json", text) { path in
            let folder = (path as NSString).deletingLastPathComponent
            let manifest = try FeedManifest.load(path)
            #expect(
                manifest.entries == [
                    FeedEntry(renditions: [
                        ProgressiveRendition(
                            url: folder + "/low.mp4", bitrate: 500_000, width: 640, height: 360, byteSize: 1000),
                        ProgressiveRendition(url: "http://example.com/high.mp4", bitrate: 1_500_000),
                    ]),
                    FeedEntry(url: folder + "/plain.mp4", kind: .video),
                ])
        }
    }

    @Test("renditions that cannot be used: each mistake named with its place")
    func mistakes() throws {
        let cases: [(String, String)] = [
            (#"[{"kind": "video", "renditions": []}]"#, "[0].renditions: empty (leave it out for none)"),
            (#"[{"kind": "video", "renditions": {}}]"#, "[0].renditions: expected an array"),
            (#"[{"kind": "video", "renditions": [{"url": "a.mp4"}]}]"#, "[0].renditions[0]: missing \"bitrate\""),
            (
                #"[{"kind": "video", "renditions": [{"url": "a.mp4", "bitrate": 0}]}]"#,
                "[0].renditions[0].bitrate: expected bits per second, above 0"
            ),
            (#"[{"kind": "video", "renditions": [{"bitrate": 5}]}]"#, "[0].renditions[0]: missing \"url\""),
            (
                #"[{"kind": "image", "renditions": [{"url": "a.jpg", "bitrate": 5}]}]"#,
                "[0].renditions: only a video has renditions"
            ),
            (#"[{"kind": "video"}]"#, "[0]: missing \"url\""),
        ]
        for (text, expected) in cases {
            let (path, error) = try FeedManifestTests.error(text)
            #expect(error?.description == "\(path): \(expected)", "\(text)")
        }
    }

    /// Runs the feed of renditions/feed.json with `arguments`; returns its `feed.rendition` events by item.
    static func run(_ arguments: [String]) async throws -> [Int: JSONValue] {
        let manifest = TestHTTPServer.localPath("renditions/feed.json")
        let result = try await CLIProcess.run(
            ["feed", manifest, "--swipes", "2", "--dwell", "0.5", "--json", "--no-audio"] + arguments, timeout: 60)
        let events = try FeedCLITests.checkRun(result, swipes: 2)
        var choices: [Int: JSONValue] = [:]
        for event in events where event["event"]?.stringValue == "feed.rendition" {
            let index = try #require(event["index"]?.intValue)
            #expect(choices[index] == nil, "one choice per item")
            choices[index] = event
        }
        #expect(Set(choices.keys) == [0, 1, 2], "every item played or prepared chose")
        return choices
    }

    @Test(
        "--json names each item's rendition: 360p from the default estimate; with --estimate 8000000 720p, then 360p for 0.5 s dwells",
        .enabled(
            if: FileManager.default.fileExists(atPath: TestHTTPServer.localPath("renditions/feed.json")),
            "needs scripts/make-http-media.sh"))
    func chosenRendition() async throws {
        let folder = TestHTTPServer.localPath("renditions")
        for (index, event) in try await Self.run([]) {
            #expect(event["url"]?.stringValue == folder + "/a-360p.mp4", "item \(index): \(event.serialized())")
            #expect(event["height"]?.intValue == 360 && event["rendition"]?.intValue == 0)
            #expect(event["reason"]?.stringValue == "initial" && event["estimateSource"]?.stringValue == "default")
            #expect(event["estimate"]?.doubleValue == 500_000 && (event["bitrate"]?.intValue ?? 0) > 0)
        }
        for (index, event) in try await Self.run(["--estimate", "8000000"]) {
            #expect(event["estimateSource"]?.stringValue == "shared" && event["estimate"]?.doubleValue == 8_000_000)
            let peak = try #require(event["peakBitRate"]?.doubleValue, "\(event.serialized())")
            if index < 2 {
                // Chosen at the start, before any dwell: the scroll's share of 8 Mbit/s at the assumed 3 s dwell
                // with 4 s read ahead, 3/7 of it, allows the 720p copy (1.5 Mbit/s).
                #expect(event["url"]?.stringValue == folder + "/a-720p.mp4", "item \(index): \(event.serialized())")
                #expect(event["width"]?.intValue == 1280 && event["rendition"]?.intValue == 1)
                #expect(abs(peak - 8_000_000 * 3 / 7) < 1, "\(event.serialized())")
            } else {
                // Chosen after the first dwell (about 0.5 s): its share, d / (d + 4), is under 1 Mbit/s.
                #expect(event["url"]?.stringValue == folder + "/a-360p.mp4", "item \(index): \(event.serialized())")
                #expect(peak < 1_000_000, "\(event.serialized())")
            }
        }
    }
}

extension FeedRenditionCLITests {
    @Test(
        "over HTTP: the first item at the default estimate (360p), the next from the link's rate (720p), no other file",
        .enabled(
            if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
    func overHTTP() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        let marker = "feed-rendition-\(UInt32.random(in: 0...UInt32.max))"
        let entries = (0..<3).map { index -> JSONValue in
            func rendition(_ name: String, _ bitrate: Int) -> JSONValue {
                .object([
                    ("url", .string(TestHTTPServer.url("renditions/\(name)?\(marker)-\(index)"))),
                    ("bitrate", .int(bitrate)),
                ])
            }
            return .object([
                ("kind", "video"),
                ("renditions", .array([rendition("a-360p.mp4", 630_000), rendition("a-720p.mp4", 1_680_000)])),
            ])
        }
        let manifest = folder.appendingPathComponent("feed.json")
        try Data(JSONValue.array(entries).serialized().utf8).write(to: manifest)
        // Without posters: a poster reads its item's chosen rendition, so with posters every item of the first
        // prefetch window chooses at the start, before the link's rate is measured (docs/feed.md, Renditions).
        let result = try await CLIProcess.run(
            ["feed", manifest.path, "--swipes", "2", "--dwell", "1", "--json", "--no-audio", "--no-posters"],
            timeout: 120)
        let events = try FeedCLITests.checkRun(result, swipes: 2)
        var urls: [Int: String] = [:]
        for event in events where event["event"]?.stringValue == "feed.rendition" {
            if let index = event["index"]?.intValue { urls[index] = event["url"]?.stringValue }
            if event["index"]?.intValue == 2 {
                #expect(event["estimateSource"]?.stringValue == "shared", "measured: \(event.serialized())")
            }
        }
        #expect(urls[0]?.contains("a-360p.mp4") == true, "no estimate yet: \(urls)")
        #expect(urls[2]?.contains("a-720p.mp4") == true, "the loopback's rate: \(urls)")
        for index in [0, 2] {
            let logged = await TestHTTPServer.responses(containing: "\(marker)-\(index) ", atLeast: 1)
            let expected = index == 0 ? "a-360p.mp4" : "a-720p.mp4"
            #expect(!logged.isEmpty && logged.allSatisfy { $0.request.contains(expected) }, "\(logged)")
        }
    }
}
