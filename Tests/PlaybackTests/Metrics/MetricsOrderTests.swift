import Foundation
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

@Suite("Metric events in order with the player's own events", .timeLimit(.minutes(3)))
struct MetricsOrderTests {
    @Test("startup: rate change, initial likely-to-keep-up and first frame each follow their player event")
    func startup() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        player.play()
        await clock.advance(by: .zero)
        for _ in 0..<9 { await clock.advance(bySeconds: 0.5) }
        let lines = trace.snapshot
        print(lines.joined(separator: "\n"))
        let rate = try #require(lines.firstIndex { $0.hasSuffix("rate 1.0 (was 0.0)") })
        #expect(lines[rate + 1].contains("metric.rateChange rateChange 1.0 (was 0.0) setRateCalled"))
        let likely = try #require(lines.firstIndex { $0.hasSuffix("likelyToKeepUp true") })
        #expect(lines[likely + 1].contains("metric.likelyToKeepUp initialLikelyToKeepUp after 0.000"))
        let first = try #require(lines.firstIndex { $0.hasSuffix("firstFrame b.mp4") })
        #expect(lines[first + 1].contains("metric.firstFrame firstFrame after 0.000"))
        let playing = try #require(lines.firstIndex { $0.hasSuffix("timeControlStatus playing") })
        #expect(rate < playing)
        let end = try #require(lines.firstIndex { $0.hasSuffix("didPlayToEnd b.mp4") })
        #expect(lines[end + 1].hasPrefix("[4.000 t=4.000] metric.summary"))
        #expect(lines[end + 2] == "[4.000 t=4.000] rate 0.0 (was 1.0)")
        #expect(lines[end + 3].contains("metric.rateChange rateChange 0.0 (was 1.0) playedToEnd"))
        let summary = try #require(trace.metrics(PlaybackSummaryEvent.self).first)
        #expect(summary.framesRendered == 100 && summary.framesDropped == 0)
        #expect(summary.playbackDuration == 4 && summary.stallCount == 0 && summary.seekCount == 0)
        #expect(trace.metrics(HangEvent.self).isEmpty)
        #expect(Set(trace.metrics.map(\.sessionID)).count == 1)
    }

    @Test("an item swap: the swap event follows the new item's first frame, with the latency to it")
    func itemSwap() async throws {
        let clock = ManualClock()
        let a = PlayerItem(url: MediaFixtures.path("a.mp4"))
        let b = PlayerItem(url: MediaFixtures.path("b.mp4"))
        let player = Player(item: a, clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        player.play()
        await clock.advance(bySeconds: 1)
        player.metricsCollector.recordContentSwap(from: a, to: b, mode: .item)
        player.replaceCurrentItem(with: b)
        await clock.advance(bySeconds: 0.5)
        let lines = trace.snapshot
        let current = try #require(lines.firstIndex { $0.hasSuffix("currentItem b.mp4") })
        let summary = try #require(lines.firstIndex { $0.contains("metric.summary") })
        #expect(summary == current + 1, "the session of a.mp4 ends with its summary")
        let first = try #require(lines.firstIndex { $0.hasSuffix("firstFrame b.mp4") })
        #expect(current < first)
        #expect(lines[first + 1].contains("metric.firstFrame"))
        #expect(lines[first + 2].contains("metric.contentSwap contentSwap a.mp4 -> b.mp4 item"))
        let swap = try #require(trace.metrics(ContentSwapEvent.self).first)
        #expect(swap.latency == 0, "b.mp4 shows its first frame at the next settle, at the same clock time")
        #expect(swap.item == "b.mp4")
        let sessions = trace.metrics.map(\.sessionID)
        #expect(Set(sessions).count == 2)
        let aSummary = try #require(trace.metrics(PlaybackSummaryEvent.self).first)
        #expect(aSummary.item == "a.mp4" && aSummary.framesRendered == 31 && aSummary.playbackDuration == 1)
    }

    @Test("a source swap to a player already showing its first frame is reported at once, latency 0")
    func sourceSwap() async throws {
        let clock = ManualClock()
        let a = PlayerItem(url: MediaFixtures.path("a.mp4"))
        let b = PlayerItem(url: MediaFixtures.path("b.mp4"))
        let old = Player(item: a, clock: .manual(clock), audio: false)
        let new = Player(item: b, clock: .manual(clock), audio: false)
        defer {
            old.invalidate()
            new.invalidate()
        }
        await clock.advance(by: .zero)
        let swaps = new.metrics(forType: ContentSwapEvent.self)
        new.metricsCollector.recordContentSwap(from: a, to: b, mode: .source)
        let swap = try #require(try await firstElement(of: swaps, "the content swap metric"))
        #expect(swap.from == "a.mp4" && swap.to == "b.mp4" && swap.mode == .source && swap.latency == 0)
    }

    @Test(
        "a stall from a throttled source: the stall metric follows the stall, recovery is timed, rate reason stalled",
        arguments: [true, false])
    func throttledStall(automaticallyWaits: Bool) async throws {
        let clock = ManualClock()
        // As in StallTests: a.mp4 needs ~65 kB/s; 30 kB/s of clock time cannot keep up.
        let throttle = MediaThrottle(bytesPerSecond: 30_000, initialBytes: 100_000, clock: clock)
        let player = Player(
            item: PlayerItem(url: MediaFixtures.path("a.mp4"), throttle: throttle), clock: .manual(clock),
            audio: false)
        defer { player.invalidate() }
        player.automaticallyWaitsToMinimizeStalling = automaticallyWaits
        let trace = MetricsTrace(player)
        player.play()
        for _ in 0..<40 { await clock.advance(bySeconds: 0.1) }
        throttle.setRate(1_000_000)
        if !automaticallyWaits { player.play() }
        for _ in 0..<100 { await clock.advance(bySeconds: 0.1) }
        let lines = trace.snapshot
        let stalled = try #require(lines.firstIndex { $0.hasSuffix("] stalled") }, "\(lines)")
        #expect(lines[stalled + 1].hasSuffix("metric.stall stall"))
        let stalls = trace.metrics(StallEvent.self)
        #expect(stalls.count == lines.filter { $0.hasSuffix("] stalled") }.count)
        let summary = try #require(trace.metrics(PlaybackSummaryEvent.self).last)
        #expect(summary.stallCount == stalls.count && summary.framesRendered == 180)
        if automaticallyWaits {
            let recovered = try #require(trace.metrics(LikelyToKeepUpEvent.self).first, "\(lines)")
            #expect(recovered.timeTaken > 0)
            #expect(summary.stallRecoveryTime > 0)
        } else {
            #expect(lines[stalled + 2].hasSuffix("rate 0.0 (was 1.0)"))
            #expect(lines[stalled + 3].contains("metric.rateChange rateChange 0.0 (was 1.0) stalled"))
            #expect(summary.stallRecoveryTime == 0, "paused, not waiting")
        }
    }

    @Test("a stall (synthetic events): stall, recovery and summary in order, with the time spent recovering")
    func stallSequence() throws {
        var deriver = MetricsDeriver(epoch: Date(timeIntervalSinceReferenceDate: 0))
        var facts = FakeFacts(frameCounts: (0, 0))
        var out: [any MetricEvent] = []
        func feed(_ kind: PlayerEvent.Kind, at t: Double, itemTime: Double = 0) {
            out += deriver.consume(event(kind, at: t, itemTime: itemTime), facts: facts).map(\.event)
        }
        feed(.currentItem, at: 0)
        feed(.rate(1, previous: 0), at: 0)
        feed(.timeControlStatus(.waitingToPlayAtSpecifiedRate, reason: .evaluatingBufferingRate), at: 0)
        feed(.likelyToKeepUp(true), at: 0.2)
        feed(.timeControlStatus(.playing, reason: nil), at: 0.2)
        feed(.firstFrame(latency: 0.25), at: 0.25)
        feed(.stalled, at: 2.2, itemTime: 2)
        feed(.likelyToKeepUp(false), at: 2.2, itemTime: 2)
        feed(.timeControlStatus(.waitingToPlayAtSpecifiedRate, reason: .toMinimizeStalls), at: 2.2, itemTime: 2)
        feed(.likelyToKeepUp(true), at: 3.0, itemTime: 2)
        feed(.timeControlStatus(.playing, reason: nil), at: 3.0, itemTime: 2)
        facts.rateChangeReason = .stalled
        feed(.stalled, at: 4.0, itemTime: 3)
        feed(.rate(0, previous: 1), at: 4.0, itemTime: 3)
        feed(.timeControlStatus(.paused, reason: nil), at: 4.0, itemTime: 3)
        facts.frameCounts = (90, 2)
        feed(.didPlayToEnd, at: 5, itemTime: 4)
        let names = out.map { "\($0)" }
        #expect(
            names == [
                "rateChange 1.0 (was 0.0) setRateCalled", "initialLikelyToKeepUp after 0.200", "firstFrame after 0.250",
                "stall", "likelyToKeepUp after 0.800", "stall", "rateChange 0.0 (was 1.0) stalled",
                "summary stalls=2 seeks=0 frames=90/2 played=3.000",
            ])
        let summary = try #require(out.last as? PlaybackSummaryEvent)
        #expect(abs(summary.startupTime - 0.2) < 1e-9)
        #expect(abs(summary.stallRecoveryTime - 0.8) < 1e-9)
        #expect(abs(summary.playbackDuration - 3.0) < 1e-9)
        let stall = try #require(out.first { $0 is StallEvent })
        #expect(stall.mediaTime == MediaTime(seconds: 2))
        #expect(stall.date == Date(timeIntervalSinceReferenceDate: 2.2))
        #expect(Set(out.map(\.sessionID)).count == 1)
    }
}
