import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl feed` over scripts/netns.sh's `/auth/` (401 unless the request carries `Authorization: Bearer
/// playctl-test-token`): `--header` for every entry, a manifest entry's `"headers"` for its own, never printed.
@Suite("playctl feed --header and entry headers")
struct FeedHeaderCLITests {
    static let token = "Bearer playctl-test-token"

    static func manifest(_ entries: [JSONValue], in folder: URL) throws -> String {
        let manifest = folder.appendingPathComponent("feed.json")
        try Data(JSONValue.object([("entries", .array(entries))]).serialized().utf8).write(to: manifest)
        return manifest.path
    }

    @Test(
        "--header: every entry behind /auth/ shows its first frame; the value is printed nowhere",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
    func feedWithHeader() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed-header")
        defer { TemporaryDirectory.remove(folder) }
        let entries = ["a.mp4", "b.mp4", "a.mp4?again"].map { clip -> JSONValue in
            .object([("url", .string(TestHTTPServer.url("auth/\(clip)"))), ("kind", "video")])
        }
        let result = try await CLIProcess.run(
            [
                // Dwells around 2 s: the first item starts cold, and a loaded machine's cold start took more than 1 s.
                "feed", try Self.manifest(entries, in: folder), "--swipes", "2", "--dwell", "2", "--json",
                "--header", "Authorization: \(Self.token)",
            ], timeout: 120)
        try FeedCLITests.checkRun(result, swipes: 2)
        #expect(!(result.standardOutput + result.standardError).contains("playctl-test-token"))
    }

    @Test(
        "a manifest entry's headers go with its requests only: the entry without them fails with a 401",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
    func entryHeaders() async throws {
        let folder = try TemporaryDirectory.make(prefix: "playctl-feed-header")
        defer { TemporaryDirectory.remove(folder) }
        let marker = "entry-\(UUID().uuidString)"
        let signed = JSONValue.object([
            ("url", .string(TestHTTPServer.url("auth/a.mp4?\(marker)"))), ("kind", "video"),
            ("headers", .object([("Authorization", .string(Self.token))])),
        ])
        let unsigned = JSONValue.object([("url", .string(TestHTTPServer.url("auth/b.mp4?entry"))), ("kind", "video")])
        let result = try await CLIProcess.run(
            ["feed", try Self.manifest([signed, unsigned], in: folder), "--swipes", "1", "--dwell", "1", "--json"],
            timeout: 120)
        #expect(result.status == 1, "\(result.standardError)")
        let events = try FeedCLITests.events(result)
        // The signed entry's reads were answered (its first frame on screen is a matter of real time: a loaded
        // machine's 1 s dwell may end first); the unsigned one failed.
        #expect(!events.contains { $0["event"]?.stringValue == "feed.failed" && $0["index"]?.intValue == 0 })
        let answered = await TestHTTPServer.responses(containing: "auth/a.mp4?\(marker)", atLeast: 1)
        #expect(answered.contains { [200, 206].contains($0.status) }, "\(answered)")
        // Every request of the signed entry carried its header: its player's, its prefetches' and its poster's.
        #expect(!answered.contains { $0.status == 401 }, "\(answered)")
        #expect(events.contains { $0["event"]?.stringValue == "feed.failed" && $0["index"]?.intValue == 1 })
        #expect(result.standardError.contains("401"), "\(result.standardError)")
        #expect(!(result.standardOutput + result.standardError).contains("playctl-test-token"))
    }

    @Test("FeedEntry: headers are read from JSON and never written back")
    func entryCoding() throws {
        let json = #"{"url": "http://h/a.mp4", "kind": "video", "headers": {"Authorization": "Bearer s3cret"}}"#
        let entry = try JSONDecoder().decode(FeedEntry.self, from: Data(json.utf8))
        #expect(entry.headers == ["Authorization": "Bearer s3cret"])
        let written = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        #expect(!written.contains("s3cret") && written.contains("http:"), "\(written)")
        let plain = try JSONDecoder().decode(FeedEntry.self, from: Data(#"{"url": "a.mp4", "kind": "video"}"#.utf8))
        #expect(plain.headers.isEmpty)
    }
}
