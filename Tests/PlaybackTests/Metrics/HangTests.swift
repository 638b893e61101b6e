import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

@Suite("The hang watchdog of the callback thread", .timeLimit(.minutes(1)))
struct HangTests {
    @Test("a time observer that blocks 400 ms gives one hang event, naming it")
    func blockingObserver() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        let blocked = Locked(false)
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 1)]) { _ in
            guard
                !blocked.withLock({
                    let was = $0
                    $0 = true
                    return was
                })
            else { return }
            Thread.sleep(forTimeInterval: 0.4)
        }
        _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.5)) { _ in }
        player.play()
        for _ in 0..<10 { await clock.advance(bySeconds: 0.5) }
        let hangs = trace.metrics(HangEvent.self)
        try #require(hangs.count == 1, "\(trace.snapshot)")
        #expect(hangs[0].callback == "boundaryTimeObserver")
        #expect(hangs[0].duration >= 0.4 && hangs[0].duration < 5)
        #expect(hangs[0].threshold == 0.25 && hangs[0].ended)
        #expect(hangs[0].mediaTime == MediaTime(seconds: 1))
    }

    @Test("normal playback with observers, a sink and a tap gives no hang event")
    func noHang() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        let frames = Locked(0)
        player.add(VideoSink { _ in frames.withLock { $0 += 1 } })
        _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.1)) { _ in }
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 2)]) { _ in }
        player.play()
        for _ in 0..<10 { await clock.advance(bySeconds: 0.5) }
        #expect(frames.withLock { $0 } == 100)
        #expect(trace.metrics(HangEvent.self).isEmpty)
        #expect(trace.metrics(PlaybackSummaryEvent.self).count == 1)
    }

    @Test("a video sink that stays blocked is reported while still blocked, once")
    func ongoingHang() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        player.metricsCollector.hangThreshold = 0.1
        player.metricsCollector.ongoingHangReportDelay = 0.2
        let hangs = player.metrics(forType: HangEvent.self)
        let calls = Locked(0)
        let returned = Locked(false)
        player.add(
            VideoSink { _ in
                guard
                    calls.withLock({
                        $0 += 1
                        return $0
                    }) == 3
                else { return }
                Thread.sleep(forTimeInterval: 1)
                returned.withLock { $0 = true }
            })
        // Whether the sink had returned when the hang was sent (observed on the sending thread, so the answer does
        // not depend on how soon this test's task runs again).
        let returnedWhenReported = Locked<Bool?>(nil)
        player.observeEventsAndMetrics { record in
            guard case .metric(let metric) = record, metric is HangEvent else { return }
            returnedWhenReported.withLock { $0 = $0 ?? returned.withLock { $0 } }
        }
        player.play()
        let playing = Task { await clock.advance(bySeconds: 0.5) }
        var iterator = hangs.makeAsyncIterator()
        let hang = try #require(await iterator.next())
        // The metric stream is sent to just before the observer is called, on the same thread: wait for the observer.
        for _ in 0..<200 where returnedWhenReported.withLock({ $0 }) == nil {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(returnedWhenReported.withLock { $0 } == false, "reported while the sink was still blocked")
        #expect(hang.callback == "videoSink" && !hang.ended)
        #expect(hang.duration >= 0.2 && hang.duration < 1)
        await playing.value
        player.invalidate()
        #expect(await iterator.next() == nil, "not reported again when it returns")
    }
}
