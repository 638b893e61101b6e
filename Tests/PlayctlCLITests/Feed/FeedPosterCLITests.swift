import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed` with entries naming their poster pictures (`"poster"`: a server's thumbnail): the manifest, its
/// mistakes, and a run whose posters are made from the pictures.
@Suite("playctl feed: posters named by the entries")
struct FeedPosterCLITests {
    @Test(
        "\"poster\": resolved against the manifest's folder as URLs are; an empty one is a mistake named with its place"
    )
    func manifest() throws {
        let text = """
            [{"url": "a.mp4", "kind": "video", "poster": "thumbs/a.jpg"},
             {"url": "b.mp4", "kind": "video", "poster": "http://example.com/b.jpg"},
             {"url": "c.mp4", "kind": "video"}]
            """
        try FeedManifestTests.withFile("feed.json", text) { path in
            let folder = (path as NSString).deletingLastPathComponent
            let manifest = try FeedManifest.load(path)
            #expect(manifest.entries.map(\.poster) == [folder + "/thumbs/a.jpg", "http://example.com/b.jpg", nil])
        }
        let (path, error) = try FeedManifestTests.error(#"[{"url": "a.mp4", "kind": "video", "poster": ""}]"#)
        #expect(error?.description == "\(path): [0].poster: empty (leave it out for none)")
        let (other, wrong) = try FeedManifestTests.error(#"[{"url": "a.mp4", "kind": "video", "poster": 5}]"#)
        #expect(wrong?.description == "\(other): [0].poster: expected a string")
    }

    @Test("local clips naming a picture: each item on screen gets its poster, made from the picture (--json)")
    func run() async throws {
        let entries = ["a.mp4", "b.mp4", "c.webm"].map { file in
            #"{"url": "\#(MediaFixtures.path(file))", "kind": "video", "poster": "\#(MediaFixtures.path("still.jpg"))"}"#
        }
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed")
        defer { TemporaryDirectory.remove(folder) }
        let path = folder.appendingPathComponent("feed.json").path
        try Data(("[" + entries.joined(separator: ",") + "]").utf8).write(to: URL(fileURLWithPath: path))
        let result = try await CLIProcess.run(
            ["feed", path, "--swipes", "2", "--dwell", "1.5", "--json", "--no-audio"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try FeedCLITests.events(result)
        let posters = events.filter { $0["event"]?.stringValue == "feed.poster" }.compactMap { $0["index"]?.intValue }
        #expect(Set(posters) == [0, 1, 2], "\(result.standardOutput)")
        let summary = try #require(events.last)
        #expect(summary["postersReady"]?.intValue ?? 0 >= 3, "\(summary.serialized())")
    }
}
