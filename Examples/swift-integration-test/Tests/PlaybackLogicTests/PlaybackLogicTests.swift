import Foundation
import Playback
import PlaybackLogic
import Testing

/// The app's logic, on the manual clock: each test gives the same result on every run, whatever the machine's
/// speed, because time moves only at `clock.advance` and each advance returns once the players settled.
@Suite struct PlaybackLogicTests {
    static let media = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Media").standardized.path
    static func clip(_ name: String) -> String { "\(media)/\(name)" }

    @Test func poolReusesPlayersAndHandsOverTheOldest() async {
        let clock = ManualClock()
        let pool = PlayerPool(capacity: 2, clock: .manual(clock))
        let first = pool.acquire(Self.clip("a.mp4"))
        first.play()
        await clock.advance(bySeconds: 1)
        #expect(first.currentTime().seconds == 1)
        #expect(pool.acquire(Self.clip("a.mp4")) === first)  // the same URL: the same player

        let second = pool.acquire(Self.clip("b.mp4"))
        #expect(second !== first)
        pool.release(first)
        let third = pool.acquire(Self.clip("c.webm"))
        #expect(third === first)  // reused, not made
        #expect(pool.playersMade == 2)
        await clock.advance(bySeconds: 0)
        #expect(third.currentItem?.name == "c.webm")
        #expect(third.currentTime() == .zero)
        #expect(third.timeControlStatus == .paused)

        // Full: the oldest player taken (b.mp4's) is paused and handed over.
        second.play()
        await clock.advance(bySeconds: 0.5)
        #expect(second.timeControlStatus == .playing)
        let fourth = pool.acquire(Self.clip("a.mp4"))
        #expect(fourth === second)
        #expect(fourth.timeControlStatus == .paused)
        #expect(pool.urlsInUse.map { ($0 as NSString).lastPathComponent } == ["c.webm", "a.mp4"])
    }

    @Test func exactSeekThroughThePoolsPlayer() async {
        let clock = ManualClock()
        let pool = PlayerPool(capacity: 1, clock: .manual(clock))
        let player = pool.acquire(Self.clip("a.mp4"))
        await clock.advance(bySeconds: 0)
        let landed = await player.seek(to: MediaTime(seconds: 3.9), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(landed)
        #expect(player.currentTime() == MediaTime(seconds: 3.9))
    }

    @Test func pictureInPictureStartsInTheBackgroundAndSwapsWithoutClosing() async {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: Self.clip("a.mp4")), clock: .manual(clock), audio: false)
        let layer = PlayerLayer(player: player)
        let coordinator = PiPCoordinator(
            layer: layer, playlist: [Self.clip("a.mp4"), Self.clip("b.mp4")], clock: .manual(clock))

        coordinator.appDidEnterBackground()  // paused: no PiP
        player.play()
        await clock.advance(bySeconds: 0.5)
        coordinator.appDidEnterBackground()
        await clock.advance(bySeconds: 0.1)
        #expect(coordinator.controller.isPictureInPictureActive)

        let next = await coordinator.playNext()
        await clock.advance(bySeconds: 0.5)
        #expect(next?.currentItem?.name == "b.mp4")
        #expect(next?.timeControlStatus == .playing)
        #expect(player.timeControlStatus == .paused)
        #expect(coordinator.controller.isPictureInPictureActive)
        #expect(await coordinator.playNext() == nil)  // the end of the playlist

        coordinator.appWillEnterForeground()
        await clock.advance(bySeconds: 0.1)
        #expect(!coordinator.controller.isPictureInPictureActive)
        #expect(
            coordinator.log == [
                "not playing: no PiP", "possible", "start", "willStart", "didStart", "playbackState", "next b.mp4",
                "contentSource", "playbackState", "playbackState", "stop", "willStop", "didStop",
            ])
    }
}
