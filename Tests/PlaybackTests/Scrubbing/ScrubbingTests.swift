import Foundation
import Playback
import PlaybackTesting
import Testing

/// A drag over a real clip: pictures while dragging, one seek in flight, the exact frame at the end.
@Suite("Scrubbing a player")
struct ScrubbingTests {
    @Test("30 positions in quick succession: keyframe pictures on the way, the last position exact, the rate back")
    func drag() async throws {
        let player = Player(clock: .host, audio: false)
        defer { player.invalidate() }
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"))
        player.replaceCurrentItem(with: item)
        try await waitUntil("a.mp4 to load") { item.status != .unknown }
        try #require(item.status == .readyToPlay, "a.mp4 ready")
        player.play()
        player.beginScrubbing()
        #expect(player.isScrubbing && player.rate == 0)
        let positions = (0..<30).map { MediaTime(value: Int64(5 + $0 * 7), timescale: 100) }
        for position in positions {
            player.scrub(to: position)
            try await Task.sleep(for: .milliseconds(3))
        }
        let statistics = try await withDeadline("the drag to end") { await player.endScrubbing() }
        #expect(statistics.positions == 30)
        #expect((1...30).contains(statistics.keyframeSeeks), "\(statistics)")
        #expect(statistics.framesShown >= 1 && statistics.firstFrameLatency != nil, "\(statistics)")
        #expect(statistics.landedTime == positions.last, "\(statistics)")
        // Playing again from there (the rate before the drag restored).
        #expect(!player.isScrubbing && player.rate == 1)
        #expect(player.currentTime() >= positions.last!)
        // A scrub outside a drag does nothing.
        player.scrub(to: MediaTime(seconds: 1))
        #expect(await player.endScrubbing() == statistics)
    }
}
