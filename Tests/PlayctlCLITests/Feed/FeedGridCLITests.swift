import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed --grid`, spawned as a user would, on the clips of Media/ (six entries: a.mp4, b.mp4, c.webm,
/// offset.ts, rotated.mp4, still.jpg; tone.m4a left out): the first four come on screen and play, the first heard;
/// the swipe moves the grid by a row.
@Suite("playctl feed --grid: runs")
struct FeedGridCLITests {
    @Test("--grid 2x2 --json: four cells on screen, one audible; a swipe moves a row; every cell's first frame")
    func gridJSON() async throws {
        let result = try await CLIProcess.run(
            ["feed", Repository.path("Media"), "--grid", "2x2", "--swipes", "1", "--dwell", "1", "--json"],
            timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        func indices(_ name: String) -> [Int] {
            events.filter { $0["event"]?.stringValue == name }.compactMap { $0["index"]?.intValue }
        }
        let trace = result.standardOutput
        #expect(indices("feed.visible") == [0, 1, 2, 3, 4, 5], "\(trace)")
        #expect(indices("feed.active") == [0, 1, 2, 3, 4, 5], "\(trace)")
        #expect(indices("feed.audible") == [0, 2], "the first visible item, then the first after the swipe")
        #expect(Set(indices("feed.firstFrame")) == [0, 1, 2, 3, 4, 5], "\(trace)")
        // The row that left gave its players back.
        #expect(Set(indices("pool.release")).isSuperset(of: [0, 1]), "\(trace)")
        #expect(!events.contains { $0["event"]?.stringValue == "pool.acquire" && $0["waited"]?.boolValue == true })
        let summary = try #require(events.last)
        #expect(summary["event"]?.stringValue == "feed.summary")
        #expect(summary["swipes"]?.intValue == 1)
        #expect(summary["activations"]?.intValue == 6, "every cell that came on screen")
        #expect(summary["failures"]?.intValue == 0)
    }

    @Test("--grid text: the header names the grid and its pool; a bad size is a usage error")
    func gridText() async throws {
        let result = try await CLIProcess.run(
            ["feed", Repository.path("Media"), "--grid", "3x1", "--swipes", "1", "--dwell", "0.5", "--no-audio"],
            timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.first?.hasSuffix("pool 6, grid 3x1") == true, "\(result.standardOutput)")
        #expect(result.outputLines.contains { $0.hasPrefix("summary: 6 activations") }, "\(result.standardOutput)")
        // Each swipe's line names the first item that came into view: #0, then #3 (a row of three further).
        let lines = result.outputLines.filter { $0.contains("  #") }
        #expect(lines.count == 2 && lines[0].contains("#0 ") && lines[1].contains("#3 "), "\(result.standardOutput)")
        let bad = try await CLIProcess.run(["feed", Repository.path("Media"), "--grid", "4x4"], timeout: 60)
        #expect(bad.status == 2, "\(bad.standardError)")
        #expect(bad.standardError.contains("--grid"), "\(bad.standardError)")
    }
}
