import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("App code: loading an asset before playing it")
struct ClipLoaderScenarioTests {
    @Test("the duration and playability load first; a missing file fails to load and is never played")
    func loads() async throws {
        let trace = try await deterministicTrace { driver, recorder in
            let player = AVPlayer()
            recorder.record(player, as: "player")
            let duration = try await ClipLoader().play(Clips.url("b.mp4"), on: player)
            recorder.note("loaded: duration \(duration.seconds) s")
            #expect(duration == CMTime(value: 4, timescale: 1))
            await driver.advance(by: 1)
            #expect(player.timeControlStatus == .playing)

            do {
                _ = try await ClipLoader().play(URL(fileURLWithPath: "/nonexistent/clip.mp4"), on: player)
                Issue.record("a missing file loaded")
            } catch {
                recorder.note("not played: \((error as NSError).domain) \((error as NSError).code)")
            }
            await driver.advance(by: 0.5)
            #expect(player.currentItem?.asset is AVURLAsset)
            player.pause()
            await driver.advance(by: 0)
        }
        expectTrace(trace, matchesGolden: "clip-loader")
    }
}
