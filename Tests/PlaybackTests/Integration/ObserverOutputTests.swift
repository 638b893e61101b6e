import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Observers, outputs and seeks while paused, under the manual clock")
struct ObserverOutputTests {
    @Test("a seek while paused shows the landing frame and stays paused; currentTime is the target")
    func seekWhilePaused() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let recorder = TraceRecorder(player)
        await clock.advance(by: .zero)
        #expect(layer.isReadyForDisplay, "the first frame is shown while paused")
        let finished = await player.seek(to: MediaTime(seconds: 4.5), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(player.timeControlStatus == .paused)
        #expect(player.currentTime() == MediaTime(seconds: 4.5))
        #expect(layer.currentFrame?.md5() == (try MediaFixtures.referenceMD5s("a.mp4"))[135])
        await clock.advance(bySeconds: 1)
        #expect(player.currentTime() == MediaTime(seconds: 4.5), "time does not move while paused")
        let trace = await recorder.snapshot()
        #expect(!trace.contains { $0.contains("timeControlStatus playing") })
        #expect(trace.contains("[0.000 t=4.500] seek#1 completed true at 4.500"))
    }

    @Test("a keyframe seek (infinite tolerance) lands on the keyframe before the target")
    func keyframeSeek() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        await clock.advance(by: .zero)
        #expect(await player.seek(to: MediaTime(seconds: 5.5)))
        #expect(player.currentTime() == MediaTime(seconds: 4))
        #expect(layer.currentFrame?.isKeyframe == true)
    }

    @Test("periodic observers fire at each interval of item time while playing; boundary observers once per crossing")
    func observers() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let periodic = Locked<[Double]>([])
        let boundary = Locked<[Double]>([])
        _ = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.5)) { time in
            periodic.withLock { $0.append(time.seconds) }
        }
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 1.2), MediaTime(seconds: 2.6)]) { time in
            boundary.withLock { $0.append(time.seconds) }
        }
        player.play()
        for _ in 0..<8 { await clock.advance(bySeconds: 0.25) }
        let times = periodic.withLock { $0 }
        for mark in [0.5, 1.0, 1.5, 2.0] {
            #expect(times.contains { abs($0 - mark) < 1e-6 }, "fired at \(mark): \(times)")
        }
        #expect(boundary.withLock { $0 } == [1.2])
        await clock.advance(bySeconds: 1)
        #expect(boundary.withLock { $0 } == [1.2, 2.6])
    }

    @Test("a pull video output copies the frame on screen in RGBA; a push sink sees every frame; a tap gets audio")
    func outputs() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let output = VideoOutput(pixelFormat: .rgba)
        let pushed = Locked(0)
        let tap = AudioTap()
        player.add(output)
        player.add(VideoSink { _ in pushed.withLock { $0 += 1 } })
        player.add(tap)
        player.play()
        await clock.advance(bySeconds: 1)
        let now = player.currentTime()
        #expect(output.hasNewFrame(forItemTime: now))
        let image = try #require(try output.copyFrame(forItemTime: now))
        #expect(image.width == 640 && image.height == 360 && image.bytes.count == 640 * 360 * 4)
        #expect(!output.hasNewFrame(forItemTime: now), "copied already")
        #expect(pushed.withLock { $0 } == 31)
        let seconds = Double(tap.framesReceived) / 48_000
        #expect(seconds > 0.9 && seconds < 1.1, "about one second of audio consumed: \(seconds)")
    }

    @Test("with 1 or 2 video decoder threads (a feed's players) every frame is ffmpeg's", arguments: [1, 2])
    func decoderThreads(threads: Int) async throws {
        let clock = ManualClock()
        let player = Player(
            item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false,
            decoderThreads: threads)
        defer { player.invalidate() }
        let md5s = Locked<[String]>([])
        player.add(VideoSink { frame in md5s.withLock { $0.append(frame.md5()) } })
        player.play()
        await clock.advance(bySeconds: 2)
        let reference = try MediaFixtures.referenceMD5s("a.mp4")
        let shown = md5s.withLock { $0 }
        #expect(shown.count == 61, "\(shown.count) frames in 2 s")
        #expect(shown == Array(reference.prefix(shown.count)))
    }

    @Test("playImmediately starts at once; pause stops the clock")
    func playImmediately() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        await clock.advance(by: .zero)
        player.playImmediately(atRate: 2)
        #expect(player.timeControlStatus == .playing && player.rate == 2)
        await clock.advance(bySeconds: 1)
        #expect(player.currentTime() == MediaTime(seconds: 2))
        player.pause()
        await clock.advance(bySeconds: 1)
        #expect(player.currentTime() == MediaTime(seconds: 2) && player.timeControlStatus == .paused)
    }
}
