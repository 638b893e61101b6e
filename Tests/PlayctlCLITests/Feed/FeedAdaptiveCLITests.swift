import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl feed --json` of HLS entries over nginx: the summary's byte figures count the items' playlists and
/// segments (docs/feed.md, "HLS and DASH entries"). The entries are scripts/make-ladder-media.sh's fMP4 ladder under
/// URLs of their own (symbolic links made for the run), so that no two items share a segment's URL.
@Suite(
    "playctl feed of HLS entries: the summary's bytes",
    .enabled(
        if: TestHTTPServer.skipReason == nil
            && FileManager.default.fileExists(atPath: TestHTTPServer.localPath("ladder/hls-fmp4/master.m3u8")),
        "needs scripts/netns.sh and the ladder"))
struct FeedAdaptiveCLITests {
    @Test("--swipes 2 --json: bytes played are the watched items' segments, within what was fetched")
    func hlsSummary() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed-hls")
        defer { TemporaryDirectory.remove(folder) }
        let marker = "cli-bytes-\(UInt32.random(in: 0...UInt32.max))"
        let names = (0..<5).map { "\(marker)-\($0)" }
        let unlink = try TestHTTPServer.linkCopies(of: "ladder/hls-fmp4", as: names, in: "feed-bytes-test")
        defer { unlink() }
        let entries = names.map { name -> JSONValue in
            .object([
                ("url", .string(TestHTTPServer.url("feed-bytes-test/\(name)/master.m3u8"))), ("kind", "video"),
            ])
        }
        let manifest = folder.appendingPathComponent("feed.json")
        try Data(JSONValue.object([("entries", .array(entries))]).serialized().utf8).write(to: manifest)
        let result = try await CLIProcess.run(
            ["feed", manifest.path, "--swipes", "2", "--dwell", "2", "--json", "--no-posters"], timeout: 120)
        try FeedCLITests.checkRun(result, swipes: 2)
        let summary = try #require(try FeedCLITests.events(result).last)
        let fetched = try #require(summary["bytesFetched"]?.intValue)
        let played = try #require(summary["bytesPlayed"]?.intValue)
        let unwatched = try #require(summary["bytesFetchedUnwatched"]?.intValue)
        // An item played counts its manifest (534 bytes), a media playlist and an initialization section (1686 in
        // every variant) and the segments before its playhead (0 played before the fix: a manifest has no byte
        // timeline); what the items never active fetched is apart from it.
        #expect(played >= 534 + 1686, "\(summary.serialized())")
        #expect(unwatched + played <= fetched, "\(summary.serialized())")
        // Item 3, prepared and never active, fetched its playlists and first segment, not its manifest alone (the
        // only URL of it counted before the fix).
        let prepared = try FeedCLITests.events(result).contains {
            $0["event"]?.stringValue == "feed.prepared" && $0["index"]?.intValue == 3
        }
        if prepared { #expect(unwatched > 534 + 1686, "\(summary.serialized())") }
        let ratio = try #require(summary["wasteRatio"]?.doubleValue)
        #expect(abs(ratio - Double(fetched - played) / Double(played)) < 1e-6, "\(summary.serialized())")
    }
}
