import Foundation
import PlaybackTesting
import PlayctlAVFoundation
import PlayctlAVFoundationTesting
import Testing

/// App/SubtitleMenu.swift (iOS code, its imports unchanged) on Media/tracks/tracks.mp4 under a manual clock.
@Suite("iOS code: a subtitle menu")
struct SubtitleMenuScenarioTests {
    @Test("the menu lists the user's language first; a pick shows it, Off hides it")
    func menu() async throws {
        let driver = ClockDriver()
        try await driver.run {
            let item = AVPlayerItem(url: URL(fileURLWithPath: TrackClips.path("tracks.mp4")))
            let player = AVPlayer(playerItem: item)
            await driver.advance(by: 0.1)
            let menu = SubtitleMenu()
            #expect(try await menu.entries(for: item, preferring: ["fr-FR"]) == ["Off", "French", "English"])
            #expect(menu.current(for: item) == nil)
            try await menu.choose("fr", for: item)
            #expect(menu.current(for: item) == "fr")
            #expect(item.playctlItem.currentMediaSelection[.legible]?.languageCode == "fra")
            try await menu.choose(nil, for: item)
            #expect(menu.current(for: item) == nil)
            player.pause()
        }
    }
}
