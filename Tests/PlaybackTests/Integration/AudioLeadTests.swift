import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// With audio, the audio leads and video follows it: when the audio runs dry (its source paused) while video
/// frames are ready, playback stalls at the end of the audio played, and the video waits with it.
@Suite("Audio leads, video follows")
struct AudioLeadTests {
    struct Run {
        let trace: [String]
        let player: Player
        /// The playhead once the audio ran dry, and where the audio handed out by then ended.
        let held: Double
        let audioEnd: Double
        let shownAtStall: Int
        let shownLater: Int
    }

    static func scenario() async -> Run {
        let clock = ManualClock()
        let throttle = MediaThrottle(bytesPerSecond: 10_000_000, clock: clock, readers: .audio)
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"), throttle: throttle)
        let player = Player(item: item, clock: .manual(clock), audio: true)
        let audioEnd = Locked(0.0)
        player.add(AudioTap { buffer in audioEnd.withLock { $0 = max($0, (buffer.time + buffer.duration).seconds) } })
        let recorder = TraceRecorder(player)
        player.play()
        for _ in 0..<10 { await clock.advance(bySeconds: 0.1) }
        throttle.pause()
        for _ in 0..<30 { await clock.advance(bySeconds: 0.1) }
        let held = player.currentTime().seconds
        let playedEnd = audioEnd.withLock { $0 }
        let shownAtStall = player.statistics.framesRendered
        for _ in 0..<10 { await clock.advance(bySeconds: 0.1) }
        let shownLater = player.statistics.framesRendered
        throttle.resume()
        for _ in 0..<70 { await clock.advance(bySeconds: 0.1) }
        return Run(
            trace: await recorder.snapshot(), player: player, held: held, audioEnd: playedEnd,
            shownAtStall: shownAtStall, shownLater: shownLater)
    }

    @Test("audio that runs dry stalls playback at its end; the video, decoded ahead, waits; both resume together")
    func audioUnderrunStalls() async throws {
        let run = await Self.scenario()
        let (trace, player, held) = (run.trace, run.player, run.held)
        defer { player.invalidate() }
        let stalled = try #require(trace.firstIndex { $0.hasSuffix(" stalled") }, "\(trace)")
        // A second of audio is decoded ahead (and more sits in the reader's buffers): paused at 1 s, the audio
        // runs out after 2 s; the playhead stops within the grace (100 ms, whole frames) of the audio's end.
        #expect(held > 2, "\(held)")
        #expect(
            held >= run.audioEnd && held <= run.audioEnd + 0.1 + 1.0 / 30, "playhead \(held), audio end \(run.audioEnd)"
        )
        #expect(trace[stalled].contains("t=\(String(format: "%.3f", held))"), "\(trace[stalled]) at \(held)")
        #expect(
            trace[stalled + 1].hasSuffix("timeControlStatus waitingToPlayAtSpecifiedRate toMinimizeStalls"), "\(trace)")
        #expect(run.shownLater == run.shownAtStall, "no video frame is shown while the audio is missing")
        #expect(Double(run.shownAtStall - 1) / 30 <= held, "video never ran ahead of the playhead")
        let resumed = try #require(trace.lastIndex { $0.hasSuffix("timeControlStatus playing") })
        let ended = try #require(trace.firstIndex { $0.contains("didPlayToEnd a.mp4") })
        #expect(stalled < resumed && resumed < ended)
        #expect(player.statistics.framesRendered == 180, "every frame shown once, none dropped")
    }

    @Test("the audio underrun trace is the same on every run")
    func deterministic() async {
        var traces: [[String]] = []
        for _ in 0..<5 {
            let run = await Self.scenario()
            run.player.invalidate()
            traces.append(run.trace)
        }
        for trace in traces.dropFirst() { #expect(trace == traces[0]) }
    }
}
