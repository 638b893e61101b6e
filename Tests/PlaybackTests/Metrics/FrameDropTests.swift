import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@testable import Playback

/// The host clock's drop path (`PlayerCore.present(at:)`: when several frames are due at once only the newest is
/// shown, the others counted as dropped), exercised on real time: in the isolated realtime group of scripts/test.sh.
///
/// App code cannot make the engine late (a sink runs on the callback executor, never on the engine thread), so a
/// sink that blocks only delays itself: the first test shows it. What makes frames late in real playback is the
/// engine thread starved of the CPU; the second test does that on purpose: every 10th frame its sink holds the
/// engine's lock for 100 ms (about three frame intervals of b.mp4's 25 fps), as a starved CPU would keep the engine
/// from running. Which frames were dropped is then read off what the sink saw against ffmpeg's list of b.mp4's
/// frames (`Media/ref/b.mp4.times`), and must be what the statistics and the summary metric report.
@Suite("Late frames on the host clock are dropped and reported, frame for frame")
struct FrameDropTests {
    /// What one play of b.mp4 on the host clock gave: the frames the sink got, in order, and what was reported.
    struct Run {
        var shown: [Int64] = []
        var blockedAfter: [Int64] = []
        var statistics: (framesRendered: Int, framesDropped: Int, frameCallbacksSkipped: Int) = (0, 0, 0)
        var summary: PlaybackSummaryEvent?
        var trace: [String] = []
    }

    /// Plays b.mp4 to its end on the host clock; every 10th frame the sink calls `block` with the player.
    static func play(blocking block: @escaping @Sendable (Player) -> Void) async throws -> Run {
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .host, audio: false)
        defer { player.invalidate() }
        let trace = MetricsTrace(player)
        let shown = Locked<[Int64]>([])
        let blockedAfter = Locked<[Int64]>([])
        player.add(
            VideoSink { [weak player] frame in
                let microseconds = Int64((frame.time.seconds * 1e6).rounded())
                let count = shown.withLock {
                    $0.append(microseconds)
                    return $0.count
                }
                guard count % 10 == 0, let player else { return }
                blockedAfter.withLock { $0.append(microseconds) }
                block(player)
            })
        player.play()
        try await waitUntil("b.mp4's summary after its end") {
            !trace.metrics(PlaybackSummaryEvent.self).isEmpty
        }
        await player.callbacksDelivered()
        return Run(
            shown: shown.withLock { $0 }, blockedAfter: blockedAfter.withLock { $0 }, statistics: player.statistics,
            summary: trace.metrics(PlaybackSummaryEvent.self).first, trace: trace.snapshot)
    }

    /// b.mp4's frames as ffmpeg lists them, in microseconds.
    static func allFrames() throws -> [Int64] {
        try MediaFixtures.referenceFrames("b.mp4").map(\.microseconds)
    }

    @Test(
        "a sink that blocks 100 ms every 10th frame delays only itself: every frame shown and delivered, none dropped")
    func blockingSinkDropsNothing() async throws {
        let run = try await Self.play { _ in Thread.sleep(forTimeInterval: 0.1) }
        #expect(run.shown == (try Self.allFrames()), "every frame reached the sink, in order")
        #expect(run.statistics.framesDropped == 0 && run.statistics.frameCallbacksSkipped == 0)
        #expect(run.summary?.framesDropped == 0)
        #expect(run.summary?.framesRendered == 100)
    }

    @Test("an engine kept from running 100 ms every 10th frame drops exactly the frames the sink never saw")
    func starvedEngineDrops() async throws {
        let run = try await Self.play { player in
            player.core.condition.lock()
            Thread.sleep(forTimeInterval: 0.1)
            player.core.condition.unlock()
        }
        let all = try Self.allFrames()
        // Nothing skipped the sink: it saw every frame that was shown, so what it did not see was dropped.
        #expect(run.statistics.frameCallbacksSkipped == 0)
        #expect(run.shown == run.shown.sorted() && Set(run.shown).isSubset(of: all), "\(run.shown)")
        let dropped = all.filter { !run.shown.contains($0) }
        #expect(!dropped.isEmpty, "the engine was late: some frames were dropped")
        print("frame drops: \(dropped.count) of \(all.count) dropped after \(run.blockedAfter.count) holds: \(dropped)")
        // Reported exactly: the player's statistics, and the summary metric (what `playctl play` prints).
        #expect(run.statistics.framesDropped == dropped.count, "dropped \(dropped)")
        #expect(run.statistics.framesRendered == run.shown.count)
        let summary = try #require(run.summary, "\(run.trace)")
        #expect(summary.framesDropped == dropped.count && summary.framesRendered == run.shown.count)
        #expect(run.trace.contains { $0.contains("frames=\(run.shown.count)/\(dropped.count)") }, "\(run.trace)")
        // And only late ones: each dropped frame comes at most 200 ms of media (5 frames) after a frame whose sink
        // call held the engine (it holds it 100 ms; the engine may have shown a frame more before it took hold).
        for frame in dropped {
            #expect(
                run.blockedAfter.contains { $0 < frame && frame - $0 <= 200_000 },
                "frame at \(frame) µs dropped, but no hold just before it: \(run.blockedAfter)")
        }
    }
}
