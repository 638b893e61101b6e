import Feed
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench

/// `bench --feed --sweep` in this process, on a tiny grid over a feed of the committed clips: the simulated link and
/// the manual clock make it quick and the same on every run.
@Suite("Feed parameter sweep")
struct FeedSweepTests {
    /// A feed folder of 9 entries: hard links to a.mp4, b.mp4 and still.jpg.
    static func miniFeed() throws -> (URL, FeedMedia) {
        let directory = try TemporaryDirectory.make(prefix: "playctl-feed-sweep")
        for index in 0..<9 {
            let file = ["a.mp4", "b.mp4", "still.jpg"][index % 3]
            try FileManager.default.linkItem(
                atPath: MediaFixtures.path(file),
                toPath: directory.path + "/" + String(format: "%03d.", index) + (file.hasSuffix("jpg") ? "jpg" : "mp4"))
        }
        let media = try FeedMedia.read(directory.path, folder: "mini", hint: "")
        return (directory, media)
    }

    @Test("two points and the baseline: every swipe accounted for, the same figures on a second run, a best point")
    func tinyGrid() async throws {
        let (directory, media) = try Self.miniFeed()
        defer { TemporaryDirectory.remove(directory) }
        #expect(media.files.count == 9 && media.distinctFiles == 3)
        let sweep = FeedSweep(budgets: [3, 5], videoCosts: [2], inactiveKiB: [0], swipes: 12, seed: 5)
        #expect(sweep.points.count == 2 && sweep.points[1].isDefault && !sweep.points[0].isDefault)
        #expect(sweep.copies(items: 9) == 2, "12 swipes over 9 entries: a second copy under other URLs")
        let report = await sweep.run(media: media, progress: { _ in })
        let again = await sweep.run(media: media, progress: { _ in })
        #expect(report.results.count == 2)
        for (result, repeated) in zip([report.baseline!] + report.results, [again.baseline!] + again.results) {
            let summary = try #require(result.run.summary)
            #expect(summary.activations == 13, "the opening and 12 swipes")
            #expect(result.run.swipes.count == 12)
            #expect(result.run.failures == 0)
            #expect(summary.loaderImpressions == repeated.run.summary?.loaderImpressions)
            #expect(result.run.swipes == repeated.run.swipes, "virtual time: the same latencies every run")
        }
        let best = try #require(report.best)
        for result in report.results {
            #expect(
                (best.run.summary?.loaderImpressionsPer1000 ?? .infinity)
                    <= (result.run.summary?.loaderImpressionsPer1000 ?? 0))
        }
        let json = report.json
        #expect(json["points"]?.arrayValue?.count == 2)
        #expect(json["points"]?[1]?["isDefault"]?.boolValue == true)
        #expect(json["baseline"]?["loaderImpressionsPer1000"]?.doubleValue != nil)
        #expect(json["best"]?["budget"]?.intValue == best.point?.budget)
        let text = report.textLines.joined(separator: "\n")
        #expect(text.contains("naive (budget 0, nothing prepared)") && text.contains("<- best"))
    }
}
