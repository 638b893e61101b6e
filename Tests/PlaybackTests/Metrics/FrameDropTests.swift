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
/// sink that blocks only delays itself (the first test: it still gets every frame shown). What makes frames late in
/// real playback is the engine thread starved of the CPU; the second test does that on purpose: every 10th frame its
/// sink holds the engine's lock for 100 ms (two and a half frame intervals of b.mp4's 25 fps), as a starved CPU would
/// keep the engine from running. Which frames were dropped is then read off what the sink saw against ffmpeg's list of b.mp4's
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

    /// The frames of b.mp4 the sink never saw, after checking that it saw every frame shown (none skipped) and
    /// that those are exactly what the statistics and the summary metric report as dropped.
    static func expectExactAccounting(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int64] {
        let all = try allFrames()
        #expect(
            run.statistics.frameCallbacksSkipped == 0, "the sink got every frame shown", sourceLocation: sourceLocation)
        #expect(
            run.shown == run.shown.sorted() && Set(run.shown).isSubset(of: all), "\(run.shown)",
            sourceLocation: sourceLocation)
        let dropped = all.filter { !run.shown.contains($0) }
        #expect(run.statistics.framesRendered == run.shown.count, sourceLocation: sourceLocation)
        #expect(run.statistics.framesDropped == dropped.count, "dropped \(dropped)", sourceLocation: sourceLocation)
        let summary = try #require(run.summary, "\(run.trace)", sourceLocation: sourceLocation)
        #expect(
            summary.framesDropped == dropped.count && summary.framesRendered == run.shown.count, "\(summary)",
            sourceLocation: sourceLocation)
        #expect(
            run.trace.contains { $0.contains("frames=\(run.shown.count)/\(dropped.count)") }, "\(run.trace)",
            sourceLocation: sourceLocation)
        return dropped
    }

    /// (A drop now and then may still come from the machine itself: the engine thread starved by other work, the
    /// other realtime suites running beside this one. The accounting is exact whatever their number.)
    @Test(
        "a sink that blocks 100 ms every 10th frame still gets every frame shown; what it never saw is reported dropped"
    )
    func blockingSink() async throws {
        let run = try await Self.play { _ in Thread.sleep(forTimeInterval: 0.1) }
        let dropped = try Self.expectExactAccounting(run)
        print("frame drops beside a blocking sink: \(dropped.count) of 100: \(dropped)")
    }

    @Test("an engine kept from running 100 ms every 10th frame drops frames after each hold, exactly as reported")
    func starvedEngineDrops() async throws {
        let run = try await Self.play { player in
            player.core.condition.lock()
            Thread.sleep(forTimeInterval: 0.1)
            player.core.condition.unlock()
        }
        let dropped = try Self.expectExactAccounting(run)
        print("frame drops: \(dropped.count) of 100 dropped after \(run.blockedAfter.count) holds: \(dropped)")
        // Each hold spans two frame intervals of 40 ms or more: a frame due during it is superseded by the next
        // before the engine runs again, so a frame at most 200 ms of media (5 frames) after the held one is dropped.
        #expect(run.blockedAfter.count == run.shown.count / 10 && !run.blockedAfter.isEmpty)
        // (Not after the last two frames: with one frame left nothing supersedes it.)
        let last = try #require(try Self.allFrames().last)
        for held in run.blockedAfter where held + 80_000 <= last {
            #expect(
                dropped.contains { $0 > held && $0 - held <= 200_000 },
                "no frame dropped after the hold at \(held) µs: \(dropped)")
        }
    }
}
