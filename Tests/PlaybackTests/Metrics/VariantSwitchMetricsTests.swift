import Foundation
import Streaming
import Testing

@testable import Playback

/// The variant switch metric events as the deriver makes them of `.variantSwitch` player events and of the reader
/// getting to the segments (synthetic inputs, no player).
@Suite("Variant switch metrics: derived from the decisions and the reads")
struct VariantSwitchMetricsTests {
    static func variant(_ id: String, _ bandwidth: Int, width: Int) -> Variant {
        Variant(
            id: id, bandwidth: bandwidth, resolution: Resolution(width: width, height: width * 9 / 16),
            media: .playlist(url: "https://example.com/v\(id).m3u8"))
    }

    static let low = variant("0", 800_000, width: 640)
    static let mid = variant("1", 2_500_000, width: 1280)
    static let high = variant("2", 6_000_000, width: 1920)

    /// A deriver with a session of `ladder.m3u8` begun at clock time 0, and what it sends.
    struct Harness {
        var deriver = MetricsDeriver(epoch: Date(timeIntervalSinceReferenceDate: 0))
        var out: [any MetricEvent] = []

        init() { feed(.currentItem, at: 0) }

        mutating func feed(_ kind: PlayerEvent.Kind, at t: Double, itemTime: Double = 0, item: String? = "ladder.m3u8")
        {
            out += deriver.consume(event(kind, at: t, itemTime: itemTime, item: item), facts: FakeFacts()).map(\.event)
        }

        mutating func decide(
            _ from: Variant?, _ to: Variant, segment: Int, reason: String, at t: Double, itemTime: Double = 0
        ) {
            let change = VariantSwitch(
                from: from, to: to, segmentIndex: segment, seconds: Double(segment) * 2, reason: reason,
                estimate: 3_000_000)
            feed(.variantSwitch(change), at: t, itemTime: itemTime)
        }

        mutating func read(_ variant: Variant, segment: Int, at t: Double, itemTime: Double) {
            let read = VariantRead(segmentIndex: segment, seconds: Double(segment) * 2, variant: variant)
            out += deriver.variantRead(
                read, of: nil, at: t, mediaTime: MediaTime(seconds: itemTime), facts: FakeFacts()
            ).map(\.event)
        }
    }

    @Test("the first choice and a switch up: each start at its decision, each end when the reader gets to it")
    func switchUp() throws {
        var h = Harness()
        h.feed(.loadedTimeRanges([]), at: 0.1)
        h.decide(nil, Self.low, segment: 0, reason: "initial", at: 0.1)
        h.read(Self.low, segment: 0, at: 0.2, itemTime: 0)
        h.feed(.loadedTimeRanges([TimeRange(start: .zero, duration: MediaTime(seconds: 6))]), at: 1.5, itemTime: 1)
        h.decide(Self.low, Self.high, segment: 3, reason: "bandwidthUp", at: 1.6, itemTime: 1)
        h.read(Self.high, segment: 3, at: 5.5, itemTime: 5.2)
        #expect(
            h.out.map(\.description) == [
                "variantSwitchStart - -> 0 at segment 0 (initial)", "variantSwitch - -> 0 at segment 0 succeeded",
                "variantSwitchStart 0 -> 2 at segment 3 (bandwidthUp)",
                "variantSwitch 0 -> 2 at segment 3 succeeded",
            ])
        #expect(
            h.out.map(\.name) == [
                "metric.variantSwitchStart", "metric.variantSwitch", "metric.variantSwitchStart",
                "metric.variantSwitch",
            ])
        let start = try #require(h.out[2] as? VariantSwitchStartEvent)
        #expect(start.from == Self.low && start.to == Self.high)
        #expect(start.segmentIndex == 3 && start.seconds == 6 && start.reason == "bandwidthUp")
        #expect(start.estimate == 3_000_000)
        #expect(start.loadedTimeRanges == [TimeRange(start: .zero, duration: MediaTime(seconds: 6))])
        #expect(start.hostTime == 1.6 && start.mediaTime == MediaTime(seconds: 1))
        #expect(start.date == Date(timeIntervalSinceReferenceDate: 1.6))
        let end = try #require(h.out[3] as? VariantSwitchEvent)
        #expect(end.didSucceed && end.from == Self.low && end.to == Self.high && end.segmentIndex == 3)
        #expect(end.hostTime == 5.5 && end.mediaTime == MediaTime(seconds: 5.2))
        #expect(end.variantSwitch == start.variantSwitch)
        let first = try #require(h.out[0] as? VariantSwitchStartEvent)
        #expect(first.from == nil && first.loadedTimeRanges.isEmpty)
        #expect(Set(h.out.map(\.sessionID)).count == 1)
        #expect(h.out.allSatisfy { $0.item == "ladder.m3u8" })
    }

    @Test("a decision replaced before the reader got to it fails; the one the reader reads succeeds")
    func replaced() throws {
        var h = Harness()
        h.decide(nil, Self.mid, segment: 0, reason: "initial", at: 0)
        h.read(Self.mid, segment: 0, at: 0.1, itemTime: 0)
        h.decide(Self.mid, Self.high, segment: 4, reason: "bandwidthUp", at: 2, itemTime: 1)
        // A stall: segment 4 is decided again, lower.
        h.decide(Self.high, Self.low, segment: 4, reason: "stall", at: 3, itemTime: 2)
        h.read(Self.low, segment: 4, at: 8, itemTime: 7.9)
        let ends = h.out.compactMap { $0 as? VariantSwitchEvent }
        #expect(
            ends.map(\.description) == [
                "variantSwitch - -> 1 at segment 0 succeeded", "variantSwitch 1 -> 2 at segment 4 failed",
                "variantSwitch 2 -> 0 at segment 4 succeeded",
            ])
        #expect(ends.dropFirst().allSatisfy { $0.hostTime == 8 })
    }

    @Test("a switch decided for a later segment waits for it; the session's end fails what is still pending")
    func pendingAtEnd() throws {
        var h = Harness()
        h.feed(.timeControlStatus(.playing, reason: nil), at: 0)
        h.decide(nil, Self.low, segment: 0, reason: "initial", at: 0)
        h.read(Self.low, segment: 0, at: 0, itemTime: 0)
        h.decide(Self.low, Self.mid, segment: 5, reason: "bandwidthUp", at: 1, itemTime: 0.5)
        h.decide(Self.mid, Self.high, segment: 6, reason: "bandwidthUp", at: 1.5, itemTime: 0.7)
        h.read(Self.mid, segment: 5, at: 9, itemTime: 8.5)
        let session = h.out.last?.sessionID
        h.feed(.currentItem, at: 10, itemTime: 0, item: "next.mp4")
        #expect(
            h.out.compactMap { ($0 as? VariantSwitchEvent)?.description } == [
                "variantSwitch - -> 0 at segment 0 succeeded", "variantSwitch 0 -> 1 at segment 5 succeeded",
                "variantSwitch 1 -> 2 at segment 6 failed",
            ])
        let failed = try #require(h.out.last { $0 is VariantSwitchEvent })
        #expect(failed.hostTime == 10 && failed.sessionID == session && failed.item == "ladder.m3u8")
        let summary = try #require(h.out.last as? PlaybackSummaryEvent)
        #expect(summary.sessionID == session, "the failure comes before the session's summary")
    }

    @Test("a seek past a pending switch: the switches at or before the segment read end there")
    func seekPast() throws {
        var h = Harness()
        h.decide(nil, Self.low, segment: 0, reason: "initial", at: 0)
        h.read(Self.low, segment: 0, at: 0, itemTime: 0)
        h.decide(Self.low, Self.mid, segment: 3, reason: "bandwidthUp", at: 1, itemTime: 0.5)
        // A seek to segment 20, decided anew on the highest rung.
        h.decide(Self.mid, Self.high, segment: 20, reason: "bandwidthUp", at: 2, itemTime: 1)
        h.read(Self.high, segment: 20, at: 2.5, itemTime: 40)
        #expect(
            h.out.compactMap { ($0 as? VariantSwitchEvent)?.description } == [
                "variantSwitch - -> 0 at segment 0 succeeded", "variantSwitch 0 -> 1 at segment 3 failed",
                "variantSwitch 1 -> 2 at segment 20 succeeded",
            ])
    }

    @Test("decisions and loaded ranges of another item (one loaded ahead) are not this session's")
    func otherItem() {
        var h = Harness()
        h.feed(.loadedTimeRanges([TimeRange(start: .zero, duration: MediaTime(seconds: 9))]), at: 0, item: "next.m3u8")
        let change = VariantSwitch(
            from: nil, to: Self.low, segmentIndex: 0, seconds: 0, reason: "initial", estimate: nil)
        h.feed(.variantSwitch(change), at: 0.5, item: "next.m3u8")
        #expect(h.out.isEmpty)
        h.decide(nil, Self.mid, segment: 0, reason: "initial", at: 1)
        let start = h.out.first as? VariantSwitchStartEvent
        #expect(start?.to == Self.mid && start?.loadedTimeRanges == [])
    }

    @Test("an item's choices before its session start with it, from the one in effect where its reader is")
    func replayed() {
        var tracker = VariantSwitchTracker()
        let context = MetricContext(
            date: Date(timeIntervalSinceReferenceDate: 3), mediaTime: .zero, sessionID: "s", hostTime: 3, item: "b")
        let choices = [
            VariantSwitch(from: nil, to: Self.low, segmentIndex: 0, seconds: 0, reason: "initial", estimate: nil),
            VariantSwitch(
                from: Self.low, to: Self.mid, segmentIndex: 2, seconds: 4, reason: "bandwidthUp", estimate: 4e6),
            VariantSwitch(
                from: Self.mid, to: Self.high, segmentIndex: 5, seconds: 10, reason: "bandwidthUp", estimate: 9e6),
        ]
        let read = VariantRead(segmentIndex: 3, seconds: 6, variant: Self.mid)
        var out = tracker.replay(choices, read: read, context: context)
        #expect(
            out.map(\.description) == [
                "variantSwitchStart 0 -> 1 at segment 2 (bandwidthUp)",
                "variantSwitchStart 1 -> 2 at segment 5 (bandwidthUp)",
            ])
        out = tracker.read(read, context: context)
        #expect(out.map(\.description) == ["variantSwitch 0 -> 1 at segment 2 succeeded"])
        #expect(tracker.decided(choices[2], context: context).isEmpty, "its event, if it comes too, is not told twice")
        #expect(tracker.pending == [choices[2]])
        var loadedAhead = VariantSwitchTracker()
        #expect(loadedAhead.replay(choices, read: nil, context: context).count == 3, "no read yet: all of them")
    }

    @Test("at most 64 switches wait for the reader: past that the oldest ends as failed, and every start ends once")
    func pendingBound() {
        var tracker = VariantSwitchTracker()
        let context = MetricContext(
            date: Date(timeIntervalSinceReferenceDate: 3), mediaTime: .zero, sessionID: "s", hostTime: 3, item: "b")
        var ended: [VariantSwitchEvent] = []
        var started = 0
        for index in 0..<200 {
            let change = VariantSwitch(
                from: index.isMultiple(of: 2) ? Self.low : Self.mid, to: index.isMultiple(of: 2) ? Self.mid : Self.low,
                segmentIndex: 1000 + index, seconds: Double(index) * 2, reason: "bandwidthUp", estimate: 4e6)
            for event in tracker.decided(change, context: context) {
                if event is VariantSwitchStartEvent { started += 1 }
                if let end = event as? VariantSwitchEvent { ended.append(end) }
            }
            #expect(tracker.pending.count <= VariantSwitchTracker.pendingLimit)
        }
        #expect(started == 200)
        #expect(tracker.pending.count == VariantSwitchTracker.pendingLimit)
        #expect(ended.count == 200 - VariantSwitchTracker.pendingLimit && ended.allSatisfy { !$0.didSucceed })
        #expect(
            ended.map(\.variantSwitch.segmentIndex) == Array(1000..<(1000 + 200 - VariantSwitchTracker.pendingLimit)))
        #expect(tracker.end(context: context).count == VariantSwitchTracker.pendingLimit)
    }
}
