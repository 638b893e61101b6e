import Foundation
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

@Suite("Metric delivery: bounded buffers, several subscribers, merges", .timeLimit(.minutes(1)))
struct MetricsDeliveryTests {
    /// Waits until `item` is loaded.
    static func ready(_ item: PlayerItem) async throws {
        try await waitUntil("the item to load") { item.status != .unknown }
        try #require(item.status == .readyToPlay)
    }

    @Test("a subscriber that never reads keeps at most its limit and does not hold playback back")
    func neverReadingSubscriber() async throws {
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"))
        let player = Player(item: item, clock: .untimed, audio: false)
        defer { player.invalidate() }
        let stuck = player.allMetrics(bufferLimit: 8)
        let stuckRecords = player.eventsAndMetrics(bufferLimit: 8)
        let trace = MetricsTrace(player)
        let events = player.events()
        try await Self.ready(item)
        // 50 seeks (100 metric events) and a whole clip, untimed, while nobody reads `stuck`.
        for index in 0..<50 {
            player.seek(
                to: MediaTime(value: Int64(index), timescale: 100), toleranceBefore: .zero,
                toleranceAfter: .zero
            ) { _ in }
        }
        player.play()
        _ = try await firstElement(of: events, "the clip to play to its end") { $0.kind == .didPlayToEnd }
        player.invalidate()
        // Everything the player handed to its callback executor (the last events, the summary, the streams' end)
        // delivered before anything is read: a slow executor (CI's ThreadSanitizer pass) yielded the last rate
        // change to `stuck` while it was being read, after the trace was taken.
        await player.callbacksDelivered()
        let read = trace.metrics
        #expect(read.count > 100)
        #expect(read.contains { $0 is PlaybackSummaryEvent })
        let summary = try #require(read.last { $0 is PlaybackSummaryEvent } as? PlaybackSummaryEvent)
        #expect(summary.framesRendered >= 165, "every frame from the last seek's target (0.49 s) to the end")
        let collector = player.metricsCollector
        #expect(collector.peakBufferedCount <= 8)
        #expect(collector.droppedCount >= 2 * (read.count - 8))
        let kept = await collect(stuck)
        #expect(kept.count == 8)
        #expect(kept.map(\.description) == read.suffix(8).map(\.description), "the newest are kept")
        #expect(await collect(stuckRecords).count == 8)
    }

    @Test("each subscriber sees the events from the moment it subscribes, all of them, in order")
    func severalSubscribers() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        let early = player.allMetrics()
        let rates = player.metrics(forType: RateChangeEvent.self)
        player.play()
        await clock.advance(bySeconds: 1)
        let late = player.allMetrics()
        _ = await player.seek(to: MediaTime(seconds: 3), toleranceBefore: .zero, toleranceAfter: .zero)
        await clock.advance(bySeconds: 2)
        player.invalidate()
        let all = await collect(early).map(\.description)
        let later = await collect(late).map(\.description)
        #expect(
            all.prefix(3) == [
                "rateChange 1.0 (was 0.0) setRateCalled", "initialLikelyToKeepUp after 0.000",
                "firstFrame after 0.000",
            ])
        #expect(later.first?.hasPrefix("seek seek#1 3.000 from 1.000 exact api") == true, "\(later)")
        #expect(Array(all.suffix(later.count)) == later)
        #expect(await collect(rates).map(\.reason) == [.setRateCalled, .playedToEnd])
    }

    @Test("the streams of two players on one manual clock merge in date order")
    func merge() async throws {
        let clock = ManualClock()
        let first = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        let second = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false)
        let merged = MetricsMerge.chronological([first.allMetrics(), second.allMetrics()])
        let seeks = MetricsMerge.chronological([
            first.metrics(forType: SeekEvent.self),
            second.metrics(forType: SeekEvent.self),
        ])
        first.play()
        await clock.advance(bySeconds: 1)
        second.play()
        _ = await second.seek(to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero)
        await clock.advance(bySeconds: 1)
        _ = await first.seek(to: MediaTime(seconds: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        await clock.advance(bySeconds: 4)
        first.invalidate()
        second.invalidate()
        let events = await collect(merged)
        #expect(events.count >= 12)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.date <= $1.date })
        #expect(events.map(\.hostTime) == events.map(\.hostTime).sorted(), "one clock: dates follow clock time")
        #expect(events.first { $0 is SeekEvent }?.item == "a.mp4")
        #expect(Set(events.map(\.sessionID)).count == 2)
        let seekItems = await collect(seeks).map(\.item)
        #expect(seekItems == ["a.mp4", "b.mp4"])
    }
}
