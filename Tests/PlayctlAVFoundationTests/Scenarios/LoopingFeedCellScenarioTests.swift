import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

@Suite("App code: a looping feed cell")
struct LoopingFeedCellScenarioTests {
    @Test("AVQueuePlayer + AVPlayerLooper loop a clip without gaps; the cell is reused for another clip")
    @MainActor
    func loops() async throws {
        let trace = try await deterministicTrace { @MainActor driver, recorder in
            let cell = LoopingFeedCell()
            recorder.record(cell.player, as: "cell")
            cell.configure(with: Clips.url("b.mp4"))
            await driver.advance(by: 8.5)
            #expect(cell.loopCount == 2)
            #expect(cell.player.timeControlStatus == .playing)
            #expect(cell.player.items().count >= 2, "copies of the clip stay queued")
            #expect(cell.playerLayer.isReadyForDisplay)

            cell.prepareForReuse()
            await driver.advance(by: 0.1)
            #expect(cell.player.items().isEmpty)
            #expect(cell.player.currentItem == nil)

            cell.configure(with: Clips.url("a.mp4"))
            await driver.advance(by: 1)
            #expect(cell.player.currentItem?.asset is AVURLAsset)
            #expect(cell.loopCount == 0)
            cell.prepareForReuse()
            await driver.advance(by: 0)
        }
        expectTrace(trace, matchesGolden: "looping-feed-cell")
    }
}
