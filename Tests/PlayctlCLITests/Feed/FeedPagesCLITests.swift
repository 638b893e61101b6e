import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed` over an endless feed served by nginx: pages of `{"entries": [...], "next": URL}` read through the
/// loader as the user nears the end.
@Suite(
    "playctl feed: pages over HTTP",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct FeedPagesCLITests {
    /// Writes pages of four entries each into a folder nginx serves; `next` of the last page is `lastNext` (nil: the
    /// last page). Returns the first page's URL and the marker its entries' URLs carry.
    static func serve(pages: Int, lastNext: String? = nil) throws -> (url: String, folder: String, marker: String) {
        let marker = "feed-pages-\(UInt32.random(in: 0...UInt32.max))"
        let folder = marker
        let path = TestHTTPServer.localPath(folder)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let files = ["a.mp4", "b.mp4", "c.webm", "a.mp4"]
        for page in 1...pages {
            let entries = (0..<4).map { slot -> JSONValue in
                let index = (page - 1) * 4 + slot
                return .object([
                    ("url", .string(TestHTTPServer.url("\(files[slot])?\(marker)-item\(index)"))), ("kind", "video"),
                ])
            }
            var members: [(String, JSONValue)] = [("entries", .array(entries))]
            if page < pages {
                members.append(("next", .string("page\(page + 1).json")))
            } else if let lastNext {
                members.append(("next", .string(lastNext)))
            }
            try Data(JSONValue.object(members).serialized().utf8).write(
                to: URL(fileURLWithPath: "\(path)/page\(page).json"))
        }
        return (TestHTTPServer.url("\(folder)/page1.json"), path, marker)
    }

    static func indices(_ events: [JSONValue], _ name: String) -> [Int] {
        events.filter { $0["event"]?.stringValue == name }.compactMap { $0["index"]?.intValue }
    }

    @Test("three pages: the scroll goes past the first page, every item reached plays, each page fetched once")
    func threePages() async throws {
        let (url, folder, marker) = try Self.serve(pages: 3)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await CLIProcess.run(
            ["feed", url, "--swipes", "11", "--dwell", "0.4", "--seed", "1", "--json", "--no-audio"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try FeedCLITests.events(result)
        let active = Self.indices(events, "feed.active")
        #expect(active.contains { $0 >= 8 }, "reached the third page: \(active)")
        #expect(active.contains { (4..<8).contains($0) }, "reached the second page: \(active)")
        // Every item reached showing its frame is judged in virtual time (FeedPagingTests): here the dwells are real
        // time on a shared machine, so only that no frame came from an item never reached. (The pages themselves
        // are asked for 5 items ahead, several dwells before the scroll needs them.)
        let frames = Set(Self.indices(events, "feed.firstFrame"))
        #expect(frames.isSubset(of: Set(active)), "\(frames) of \(active)")
        #expect(Self.indices(events, "feed.page") == [4, 8])
        #expect(Self.indices(events, "feed.pagesEnded") == [12])
        let summary = try #require(events.last)
        #expect(summary["pagesLoaded"]?.intValue == 2 && summary["failures"]?.intValue == 0)
        for page in ["page1.json", "page2.json", "page3.json"] {
            let logged = await TestHTTPServer.responses(containing: "\(marker)/\(page)", atLeast: 1)
            #expect(logged.count == 1 && [200, 206].contains(logged.first?.status ?? 0), "\(page): \(logged)")
        }
    }

    @Test("a page that cannot be fetched: feed.pageFailed names its URL and status; the feed plays what it has")
    func missingPage() async throws {
        let (url, folder, _) = try Self.serve(pages: 1, lastNext: "missing.json")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await CLIProcess.run(
            ["feed", url, "--swipes", "6", "--dwell", "0.4", "--seed", "1", "--json", "--no-audio"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try FeedCLITests.events(result)
        let failed = events.filter { $0["event"]?.stringValue == "feed.pageFailed" }
        #expect(failed.count >= 1)
        let error = failed.first?["error"]?.stringValue ?? ""
        #expect(error.contains("missing.json") && error.contains("404"), "\(error)")
        let active = Self.indices(events, "feed.active")
        #expect(active.last == 3, "the scroll ends where the entries do: \(active)")
        #expect(events.last?["pageFailures"]?.intValue == failed.count)
        #expect(events.last?["swipes"]?.intValue == active.count - 1, "the swipes made, not the 6 planned")
    }
}
