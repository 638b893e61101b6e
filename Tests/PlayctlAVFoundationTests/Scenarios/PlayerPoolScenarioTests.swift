import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("App code: a player pool")
struct PlayerPoolScenarioTests {
    @Test("players are made, handed out, played, reset with replaceCurrentItem(with: nil) and pause(), and reused")
    func pool() async throws {
        let trace = try await deterministicTrace { driver, recorder in
            let pool = PlayerPool(size: 2)
            let first = await pool.acquire()
            recorder.record(first, as: "first")
            let status = PlaybackStatusObserver(player: first) { recorder.note("first: \($0)", source: "ui") }
            first.replaceCurrentItem(with: AVPlayerItem(url: Clips.url("a.mp4")))
            first.play()
            await driver.advance(by: 0.5)
            #expect(first.timeControlStatus == .playing)
            #expect(first.currentItem?.status == .readyToPlay)

            await pool.release(first)
            await driver.advance(by: 0)
            #expect(first.currentItem == nil)
            #expect(first.timeControlStatus == .paused)
            #expect(first.rate == 0)
            status.stop()

            let second = await pool.acquire()
            #expect(second === first, "the released player is handed out again")
            second.replaceCurrentItem(with: AVPlayerItem(url: Clips.url("b.mp4")))
            second.play()
            await driver.advance(by: 4.2)
            #expect(second.timeControlStatus == .paused, "b.mp4 played to its end")
            #expect(await pool.created == 2)
        }
        expectTrace(trace, matchesGolden: "player-pool")
    }
}
