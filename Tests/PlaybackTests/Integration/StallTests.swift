import Foundation
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Stalls from a throttled source under the manual clock")
struct StallTests {
    /// a.mp4 is ~390 kB for 6 s (~65 kB/s, its index at the start); 30 kB/s of clock time cannot keep up.
    static func scenario(automaticallyWaits: Bool) async -> (trace: [String], player: Player) {
        let clock = ManualClock()
        let throttle = MediaThrottle(bytesPerSecond: 30_000, initialBytes: 100_000, clock: clock)
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"), throttle: throttle)
        let player = Player(item: item, clock: .manual(clock), audio: false)
        player.automaticallyWaitsToMinimizeStalling = automaticallyWaits
        let recorder = TraceRecorder(player)
        player.play()
        for _ in 0..<40 { await clock.advance(bySeconds: 0.1) }
        throttle.setRate(1_000_000)
        for _ in 0..<100 { await clock.advance(bySeconds: 0.1) }
        return (await recorder.snapshot(), player)
    }

    @Test("a stall waits toMinimizeStalls, then plays again once frames are decoded ahead")
    func stallAndRecovery() async throws {
        let (trace, player) = await Self.scenario(automaticallyWaits: true)
        defer { player.invalidate() }
        let stalled = try #require(trace.firstIndex { $0.hasSuffix(" stalled") }, "\(trace)")
        let waiting = try #require(
            trace.firstIndex { $0.hasSuffix("timeControlStatus waitingToPlayAtSpecifiedRate toMinimizeStalls") })
        let resumed = try #require(trace.lastIndex { $0.hasSuffix("timeControlStatus playing") })
        #expect(stalled < waiting && waiting < resumed, "\(trace)")
        #expect(trace.contains { $0.hasSuffix("didPlayToEnd a.mp4") })
        #expect(player.statistics.framesRendered == 180, "every frame shown once, none dropped")
    }

    @Test("without automatic waiting, a stall pauses the player with rate 0")
    func stallPauses() async throws {
        let (trace, player) = await Self.scenario(automaticallyWaits: false)
        defer { player.invalidate() }
        let stalled = try #require(trace.firstIndex { $0.hasSuffix(" stalled") }, "\(trace)")
        #expect(trace[stalled + 1].hasSuffix("rate 0.0 (was 1.0)"), "\(trace)")
        #expect(trace[stalled + 2].hasSuffix("timeControlStatus paused"))
        #expect(player.rate == 0)
    }

    @Test("the stall trace is the same on every run")
    func deterministic() async throws {
        var traces: [[String]] = []
        for _ in 0..<5 {
            let (trace, player) = await Self.scenario(automaticallyWaits: true)
            player.invalidate()
            traces.append(trace)
        }
        for trace in traces.dropFirst() { #expect(trace == traces[0]) }
    }
}
