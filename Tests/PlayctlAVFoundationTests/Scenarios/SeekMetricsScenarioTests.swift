import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("App code: seeks reported through AVMetrics")
struct SeekMetricsScenarioTests {
    @Test("a superseded seek completes with false, the latest lands; AVMetricPlayerItemSeekEvent reports each")
    func seeks() async throws {
        let trace = try await deterministicTrace { driver, recorder in
            let player = AVPlayer(url: Clips.url("a.mp4"))
            recorder.record(player, as: "player")
            let reporter = SeekReporter()
            await reporter.watch(try #require(player.currentItem))
            player.play()
            await driver.advance(by: 0.5)

            player.seek(to: CMTime(value: 1800, timescale: 600), toleranceBefore: .zero, toleranceAfter: .zero) {
                recorder.note("seek to 3.0 finished: \($0)")
            }
            player.seek(
                to: CMTime(seconds: 3.5, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero
            ) {
                recorder.note("seek to 3.5 finished: \($0)")
            }
            await driver.advance(by: 0.5)
            let landed = await player.seek(to: CMTimeMake(value: 600, timescale: 600))
            recorder.note("seek to 1.0 (keyframe) finished: \(landed)")
            await driver.advance(by: 0.2)
            player.pause()
            await driver.advance(by: 0)

            // The reporter's task takes them as a loaded machine lets it (30 s only turns a hang into a failure).
            try await waitUntil("the three seeks reported") { await reporter.reported.count >= 3 }
            #expect(
                await reporter.reported == [
                    "seek reported at media time 3.000", "seek reported at media time 3.500",
                    "seek reported at media time 1.000",
                ])
            await reporter.stop()
        }
        expectTrace(trace, matchesGolden: "seek-metrics")
    }
}
