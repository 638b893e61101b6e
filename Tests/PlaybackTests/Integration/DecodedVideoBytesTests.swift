import Foundation
import PlaybackTesting
import Testing

@testable import Playback

/// `Player(decodedVideoBytes:)`: the bound a player gives its items' decoded-picture queues.
@Suite("A player's decoded-picture queue bound")
struct DecodedVideoBytesTests {
    /// The pictures `player`'s current item holds decoded once its video thread settles (paused: nothing taken).
    private func settledQueue(of player: Player) async throws -> Int {
        try await waitUntil("the item's video queue to fill") {
            player.core.read { $0.currentLoaded?.video?.snapshot() }.map { $0.isFull || $0.ended } ?? false
        }
        return try #require(player.core.read { $0.currentLoaded?.video?.snapshot().count })
    }

    @Test("a paused player fills its queue to the bytes it was given, at the size of its pictures")
    func boundFollowsBytes() async throws {
        // Media/a.mp4 is 640x360: a picture is 345,600 bytes (4:2:0).
        let picture = 640 * 360 * 3 / 2
        var held: [Int: Int] = [:]
        for bytes in [1 << 20, Player.defaultDecodedVideoBytes, 2 * Player.defaultDecodedVideoBytes] {
            let clock = ManualClock()
            let player = Player(
                item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: false,
                decodedVideoBytes: bytes)
            defer { player.invalidate() }
            await clock.advance(by: .zero)
            held[bytes] = try await settledQueue(of: player)
        }
        #expect(held[1 << 20] == (1 << 20) / picture, "\(held)")
        #expect(held[Player.defaultDecodedVideoBytes] == Player.defaultDecodedVideoBytes / picture, "\(held)")
        // At most 24 pictures whatever the bytes.
        #expect(held[2 * Player.defaultDecodedVideoBytes] == 24, "\(held)")
    }
}
