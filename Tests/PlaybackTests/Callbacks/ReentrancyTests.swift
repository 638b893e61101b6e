import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

/// Every kind of callback into app code calls back into the player (reads, seeks, pauses, replaces the item,
/// invalidates the player) and the player goes on: nothing runs app code under an engine lock.
@Suite("Callbacks that call back into the player", .timeLimit(.minutes(2)))
struct ReentrancyTests {
    /// What the callback does to the player, the first time it runs after playback passed 0.5 s.
    enum Reentry: String, CaseIterable, Sendable {
        case rate, currentTime, seek, pause, replaceCurrentItem, invalidate
    }

    /// Where app code is called.
    enum Kind: String, CaseIterable, Sendable {
        case videoSink, layerObserver, periodicObserver, boundaryObserver, eventObserver, metricsObserver,
            seekCompletion, audioTap
    }

    @Test(
        "each callback kind, calling each API from inside, under the manual clock",
        arguments: Kind.allCases, Reentry.allCases)
    func reentry(kind: Kind, reentry: Reentry) async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let recorder = TraceRecorder(player)
        let done = Locked(false)
        let replacement = PlayerItem(url: MediaFixtures.path("a.mp4"))
        /// Runs the reentry once, from inside the callback, once playback passed 0.5 s.
        let act: @Sendable () -> Void = { [weak player] in
            guard let player, player.currentTime().seconds >= 0.5 || kind == .seekCompletion else { return }
            guard
                !done.withLock({
                    let was = $0
                    $0 = true
                    return was
                })
            else { return }
            switch reentry {
            case .rate: _ = player.rate
            case .currentTime: _ = player.currentTime()
            case .seek: player.seek(to: MediaTime(seconds: 0.2), toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
            case .pause: player.pause()
            case .replaceCurrentItem: player.replaceCurrentItem(with: replacement)
            case .invalidate: player.invalidate()
            }
        }
        let layer = PlayerLayer(player: nil)
        switch kind {
        case .videoSink: player.add(VideoSink { _ in act() })
        case .layerObserver:
            layer.player = player
            layer.onFrame { _ in act() }
        case .periodicObserver: _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.1)) { _ in act() }
        case .boundaryObserver: _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 0.6)]) { _ in act() }
        case .eventObserver:
            _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.1)) { _ in }
            player.observeEvents { _ in act() }
        case .metricsObserver:
            _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.1)) { _ in }
            player.observeEventsAndMetrics { _ in act() }
        case .seekCompletion: break
        case .audioTap: player.add(AudioTap { _ in act() })
        }
        player.play()
        for _ in 0..<4 { await clock.advance(bySeconds: 0.25) }
        if kind == .seekCompletion {
            player.seek(to: MediaTime(seconds: 1.5), toleranceBefore: .zero, toleranceAfter: .zero) { _ in act() }
            await clock.advance(by: .zero)
        }
        #expect(done.withLock { $0 }, "the callback ran")
        let framesBefore = player.statistics.framesRendered
        if reentry == .pause {
            #expect(player.timeControlStatus == .paused && player.rate == 0)
            player.play()
        }
        // The player goes on (or, invalidated, stays quiet without hanging the clock).
        for _ in 0..<4 { await clock.advance(bySeconds: 0.25) }
        let trace = await recorder.snapshot()
        switch reentry {
        case .invalidate:
            #expect(player.statistics.framesRendered == framesBefore, "an invalidated player shows nothing more")
        case .replaceCurrentItem:
            #expect(player.currentItem === replacement)
            #expect(trace.contains { $0.hasSuffix("firstFrame a.mp4") }, "\(trace)")
            #expect(player.statistics.framesRendered >= framesBefore + 25, "\(trace)")
        case .seek:
            #expect(trace.contains { $0.contains("seek#") && $0.contains("completed true") }, "\(trace)")
            #expect(player.statistics.framesRendered >= framesBefore + 25)
        case .rate, .currentTime, .pause:
            #expect(player.statistics.framesRendered >= framesBefore + 25, "\(trace)")
            #expect(player.timeControlStatus == .playing)
        }
    }

    @Test("host clock: a video sink that reads the player's rate gets every frame, as one that does not")
    func sinkReadsRate() async throws {
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audio: false)
        defer { player.invalidate() }
        let frames = Locked(0)
        player.add(
            VideoSink { [weak player] _ in
                _ = player?.rate
                frames.withLock { $0 += 1 }
            })
        player.play()
        // About 60 frames in 2 s at 30 fps on an idle machine; a sink under the engine's lock got none. A loaded
        // machine (sanitizers, parallel suites) is given up to 30 s to show 20.
        try await waitUntil("20 frames shown (\(frames.withLock { $0 }) were)", interval: .milliseconds(50)) {
            frames.withLock { $0 } >= 20
        }
    }

    @Test("host clock: a layer observer that calls currentTime() leaves the engine running")
    func layerReadsCurrentTime() async throws {
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let times = Locked<[Double]>([])
        layer.onFrame { [weak player] _ in
            guard let player else { return }
            times.withLock { $0.append(player.currentTime().seconds) }
        }
        let periodic = Locked(0)
        _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.25)) { _ in periodic.withLock { $0 += 1 } }
        player.play()
        // An engine stopped for good by the observer showed two frames and fired the observer twice. 20 frames in
        // 2 s on an idle machine; up to 30 s on a loaded one.
        try await waitUntil(
            "20 frames and 4 periodic observations (\(times.withLock { $0.count }) and \(periodic.withLock { $0 }))",
            interval: .milliseconds(50)
        ) { times.withLock { $0.count } >= 20 && periodic.withLock { $0 } >= 4 }
        #expect(player.currentTime().seconds > 0.5, "20 frames at 30 fps: two thirds of a second in")
    }

    @Test(
        "host clock: a sink slower than the frame rate costs a bounded number of waiting frames, and the clock goes on")
    func slowSink() async throws {
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audio: false)
        defer { player.invalidate() }
        let frames = Locked(0)
        // The sink's first call blocks until the test has seen what presentation does meanwhile (30 s at most, a
        // hang detector of the test's own); the later ones return at once.
        let release = DispatchSemaphore(value: 0)
        player.add(
            VideoSink { _ in
                let first = frames.withLock {
                    $0 += 1
                    return $0 == 1
                }
                if first { _ = release.wait(timeout: .now() + 30) }
            })
        player.play()
        let limit = PlayerCore.pendingFrameCallbackLimit
        // Waiting for the sink, presentation would show no more frames than the one the sink holds and the few
        // waiting behind it: it shows more, with the sink still blocked on its first frame.
        try await waitUntil("more than \(limit + 1) frames shown while the sink is blocked") {
            player.statistics.framesRendered > limit + 1
        }
        #expect(frames.withLock { $0 } == 1, "the sink is still on its first frame")
        let stats = player.statistics
        let seen = frames.withLock { $0 }
        release.signal()
        // Every frame shown reached the sink, was skipped, or waits (at most `limit`, one of them running).
        #expect(stats.framesRendered - seen - stats.frameCallbacksSkipped <= limit, "\(stats), sink got \(seen)")
    }
}
