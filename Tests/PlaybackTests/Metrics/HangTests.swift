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
        let started = ContinuousClock.now
        for _ in 0..<10 { await clock.advance(bySeconds: 0.5) }
        let whole = (ContinuousClock.now - started) / .seconds(1)
        let hangs = trace.metrics(HangEvent.self)
        try #require(hangs.count == 1, "\(trace.snapshot)")
        #expect(hangs[0].callback == "boundaryTimeObserver")
        // At least the 400 ms it slept; no more than the whole run it happened in (measured in the same run).
        #expect(hangs[0].duration >= 0.4 && hangs[0].duration <= whole, "\(hangs[0].duration) of \(whole) s")
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
        // The third frame's sink call blocks until the hang is reported (or 30 s, a hang detector of the test's own):
        // no real sleep whose length a loaded machine could outrun.
        let reported = DispatchSemaphore(value: 0)
        let playStarted = Locked<ContinuousClock.Instant?>(nil)
        player.add(
            VideoSink { _ in
                guard
                    calls.withLock({
                        $0 += 1
                        return $0
                    }) == 3
                else { return }
                _ = reported.wait(timeout: .now() + 30)
                returned.withLock { $0 = true }
            })
        // Whether the sink had returned when the hang was sent, and how long the player had been playing then
        // (observed on the sending thread, so the answers do not depend on how soon this test's task runs again).
        let returnedWhenReported = Locked<Bool?>(nil)
        let playingWhenReported = Locked<Double?>(nil)
        player.observeEventsAndMetrics { record in
            guard case .metric(let metric) = record, metric is HangEvent else { return }
            returnedWhenReported.withLock { $0 = $0 ?? returned.withLock { $0 } }
            let since = playStarted.withLock { $0 }
            playingWhenReported.withLock { $0 = $0 ?? since.map { (ContinuousClock.now - $0) / .seconds(1) } }
            reported.signal()
        }
        playStarted.withLock { $0 = ContinuousClock.now }
        player.play()
        let playing = Task { await clock.advance(bySeconds: 0.5) }
        let hang = try #require(try await firstElement(of: hangs, "the hang metric"))
        // The metric stream is sent to just before the observer is called, on the same thread: wait for the observer.
        try await waitUntil("the hang observer to run") { returnedWhenReported.withLock { $0 } != nil }
        #expect(returnedWhenReported.withLock { $0 } == false, "reported while the sink was still blocked")
        #expect(hang.callback == "videoSink" && !hang.ended)
        // At least the report delay; no more than the player had been playing when it was reported (same run).
        let played = try #require(playingWhenReported.withLock { $0 })
        #expect(hang.duration >= 0.2 && hang.duration <= played, "\(hang.duration) of \(played) s")
        await playing.value
        player.invalidate()
        let again = try await firstElement(of: hangs, "the hang metrics' end (the player invalidated)")
        #expect(again == nil, "not reported again when it returns")
    }
}
