import Feed
import Testing

@testable import PlayctlBench

/// `bench --feed`'s weak-link figures from made-up runs: swipes that showed nothing, prepared first frames, the
/// renditions' rebuffering and bytes on the wire over mpv's.
@Suite("bench --feed's weak-link report")
struct FeedReportWeakTests {
    static func run(
        _ name: String, _ latencies: [Double?], pictures: [FeedEvent.Picture?], summary: FeedSummary?, bytes: Int64
    ) -> SwipeRun {
        var run = FeedReportTests.run(name, latencies, prepared: summary != nil, summary: summary)
        for (offset, picture) in pictures.enumerated() { run.swipes[offset].picture = picture }
        run.bytesOnWire = bytes
        return run
    }

    @Test("the weak-link targets: measured only with its runs; blank swipes, p95s, rebuffering, bytes over mpv's")
    func targets() throws {
        var report = FeedReportTests.report()
        #expect(!report.targets.contains { $0.key.hasPrefix("weak") }, "not run: no weak-link targets")
        var stalled = FeedSummary()
        stalled.watchedSeconds = 100
        stalled.stallSeconds = 0.5
        report.weak = [
            Self.run(
                "playctl", [0, 0.05, 0.2, 0.01], pictures: [.firstFrame, .poster, .nothing, .firstFrame],
                summary: FeedSummary(), bytes: 9_000_000),
            Self.run(
                "mpv --prefetch-playlist=yes", [0.4, 0.5, 0.4, 0.6], pictures: [], summary: nil, bytes: 10_000_000),
            Self.run(
                "playctl, renditions", [0, 0, 0.02, 0], pictures: [.firstFrame, .firstFrame, .poster, .firstFrame],
                summary: stalled, bytes: 7_000_000),
        ]
        let targets = Dictionary(uniqueKeysWithValues: report.targets.map { ($0.key, $0) })
        #expect(targets.count == 11)
        #expect(targets["weakBlankSwipes"]?.value == 0.25 && targets["weakBlankSwipes"]?.met == false)
        #expect(
            targets["weakPreparedFirstFrameP95"]?.value == 0.2 && targets["weakPreparedFirstFrameP95"]?.met == false)
        #expect(targets["weakRenditionsPreparedFirstFrameP95"]?.value == 0.02)
        #expect(targets["weakRenditionsPreparedFirstFrameP95"]?.met == true)
        #expect(targets["weakRenditionsRebufferRatio"]?.value == 0.005)
        #expect(
            targets["weakRenditionsBytesOverMPV"]?.value == 0.7 && targets["weakRenditionsBytesOverMPV"]?.met == true)
        let text = report.textLines.joined(separator: "\n")
        #expect(text.contains("playctl: nothing on screen at 25.0% of swipes, a poster at 1"), "\(text)")
        #expect(text.contains("7.00 MB sent (0.700x mpv's)"), "\(text)")
        let json = report.json
        #expect(json["weak"]?.arrayValue?.count == 3)
        #expect(json["weak"]?[0]?["bytesOnWire"]?.intValue == 9_000_000)
        #expect(json["weak"]?[2]?["summary"]?["blankSwipes"]?.intValue == 0)
        #expect(json["weak"]?[0]?["swipes"]?[2]?["picture"]?.stringValue == "nothing")
    }
}
