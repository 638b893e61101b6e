import Foundation
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Item end, replacement, queues and loops under the manual clock")
struct ItemEndTests {
    @Test("actionAtItemEnd .none keeps playing at the end; .pause pauses")
    func actionAtItemEnd() async throws {
        for action in [ActionAtItemEnd.none, .pause] {
            let clock = ManualClock()
            let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
            defer { player.invalidate() }
            player.actionAtItemEnd = action
            let recorder = TraceRecorder(player)
            player.play()
            await clock.advance(bySeconds: 5)
            let trace = await recorder.snapshot()
            #expect(trace.contains("[4.000 t=4.000] didPlayToEnd b.mp4"))
            #expect(player.currentTime() == MediaTime(seconds: 4))
            if action == .pause {
                #expect(player.timeControlStatus == .paused && player.rate == 0)
                #expect(trace.last == "[4.000 t=4.000] timeControlStatus paused")
            } else {
                #expect(player.timeControlStatus == .playing && player.rate == 1)
                #expect(trace.last == "[4.000 t=4.000] didPlayToEnd b.mp4")
            }
        }
    }

    @Test("replacing the item while playing keeps the rate and plays the new item from 0")
    func replaceWhilePlaying() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let recorder = TraceRecorder(player)
        player.play()
        await clock.advance(bySeconds: 1)
        player.replaceCurrentItem(with: PlayerItem(url: MediaFixtures.path("b.mp4")))
        #expect(player.rate == 1)
        await clock.advance(bySeconds: 1)
        let trace = await recorder.snapshot()
        #expect(trace.contains("[1.000 t=0.000] currentItem b.mp4"))
        #expect(trace.contains("[1.000 t=0.000] item.status b.mp4 readyToPlay"))
        #expect(player.currentTime() == MediaTime(seconds: 1))
        #expect(layer.currentFrame?.md5() == (try MediaFixtures.referenceMD5s("b.mp4"))[25])
    }

    @Test("replacing with nil while playing waits with noItemToPlay")
    func replaceWithNil() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("b.mp4")), clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        player.play()
        await clock.advance(bySeconds: 0.5)
        player.replaceCurrentItem(with: nil)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        #expect(player.rate == 1)
    }

    @Test("a queue player advances with no gap: frames continue on the next clock tick")
    func queueAdvance() async throws {
        let clock = ManualClock()
        let player = QueuePlayer(
            items: [PlayerItem(url: MediaFixtures.path("b.mp4")), PlayerItem(url: MediaFixtures.path("a.mp4"))],
            clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let recorder = TraceRecorder(player)
        player.play()
        await clock.advance(by: .zero)
        for _ in 0..<25 { await clock.advance(bySeconds: 0.2) }
        let trace = await recorder.snapshot()
        #expect(trace.contains("[4.000 t=4.000] didPlayToEnd b.mp4"))
        #expect(trace.contains("[4.000 t=0.000] currentItem a.mp4"))
        #expect(!trace.contains { $0.contains("waitingToPlayAtSpecifiedRate") && $0.hasPrefix("[4.") }, "\(trace)")
        #expect(player.items().count == 1)
        #expect(player.currentTime() == MediaTime(seconds: 1))
        #expect(layer.framesDisplayed == 100 + 31)
    }

    @Test("a looper plays the item again and again, counting loops")
    func looper() async throws {
        let clock = ManualClock()
        let player = QueuePlayer(clock: .manual(clock), audio: false)
        defer { player.invalidate() }
        let looper = PlayerLooper(player: player, templateItem: PlayerItem(url: MediaFixtures.path("b.mp4")))
        let layer = PlayerLayer(player: player)
        player.play()
        await clock.advance(by: .zero)
        for _ in 0..<50 { await clock.advance(bySeconds: 0.25) }
        #expect(looper.loopCount == 3)
        #expect(player.timeControlStatus == .playing)
        #expect(player.currentTime() == MediaTime(seconds: 0.5))
        #expect(layer.framesDisplayed == 3 * 100 + 13)
    }

    @Test("the same scenario gives the same trace 20 times")
    func deterministic() async throws {
        var traces: [[String]] = []
        for _ in 0..<20 {
            let clock = ManualClock()
            let player = QueuePlayer(
                items: [PlayerItem(url: MediaFixtures.path("b.mp4")), PlayerItem(url: MediaFixtures.path("c.webm"))],
                clock: .manual(clock), audio: true)
            let recorder = TraceRecorder(player)
            player.play()
            await clock.advance(bySeconds: 0.3)
            _ = await player.seek(to: MediaTime(seconds: 2.1), toleranceBefore: .zero, toleranceAfter: .zero)
            player.pause()
            await clock.advance(bySeconds: 0.5)
            player.play()
            for _ in 0..<12 { await clock.advance(bySeconds: 0.25) }
            traces.append(await recorder.snapshot(settle: .milliseconds(10)))
            player.invalidate()
        }
        #expect(traces[0].count > 10)
        for trace in traces.dropFirst() { #expect(trace == traces[0]) }
    }
}
