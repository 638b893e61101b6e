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
        let ended = Self.playedToEnd(player)
        player.play()
        // A sink under the engine's lock got one frame and the play stopped there. Played to its end, every frame
        // is shown or dropped as late (how many of each depends on the machine's load, not judged here), and the
        // sink got each one shown but those whose callback was skipped while it was busy.
        try await waitUntil("b.mp4 to play to its end on the host clock") { ended.withLock { $0 } }
        let stats = player.statistics
        #expect(stats.framesRendered + stats.framesDropped == 100, "b.mp4's 100 frames: \(stats)")
        // The sink's calls still queued on the callback thread come in.
        try await waitUntil("the sink to get every frame shown, but those skipped: \(stats)") {
            frames.withLock { $0 } + stats.frameCallbacksSkipped == stats.framesRendered
        }
        #expect(frames.withLock { $0 } >= 1)
    }

    /// Whether `player` has reported its item's end (observed from before `play()`).
    static func playedToEnd(_ player: Player) -> Locked<Bool> {
        let ended = Locked(false)
        player.observeEvents { event in
            if case .didPlayToEnd = event.kind { ended.withLock { $0 = true } }
        }
        return ended
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
        let ended = Self.playedToEnd(player)
        player.play()
        // An engine stopped for good by the observer showed two frames and fired the observer twice: it never
        // reaches the end. Played to its end, every frame is shown or dropped as late (how many of each depends on
        // the machine's load), and the layer saw each one shown but those whose callback was skipped meanwhile.
        try await waitUntil("b.mp4 to play to its end on the host clock") { ended.withLock { $0 } }
        let stats = player.statistics
        #expect(stats.framesRendered + stats.framesDropped == 100, "b.mp4's 100 frames: \(stats)")
        try await waitUntil("the layer to see every frame shown, but those skipped: \(stats)") {
            times.withLock { $0.count } + stats.frameCallbacksSkipped == stats.framesRendered
        }
        #expect(periodic.withLock { $0 } >= 4, "the periodic observer keeps firing over the 4 s")
        #expect(times.withLock { $0.last ?? 0 } > 0.5, "currentTime() read from the layer moves on")
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
