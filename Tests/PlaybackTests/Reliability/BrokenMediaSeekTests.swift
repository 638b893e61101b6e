import Foundation
import MediaIO
import Playback
import PlaybackTesting
import Synchronization
import Testing

/// Seeking inside damaged media: every seek completes (landed, or `false`), in time, and the player goes on.
@Suite("Broken media: seeks in damaged files complete")
struct BrokenMediaSeekTests {
    /// The corpus files that open (the damage is inside the media), and clean clips of every container.
    static let damaged = BrokenMedia.all.filter {
        switch $0.name {
        case "zeroed-a-middle.mp4", "trunc-b-999.mp4", "audio-only.m4a": return true
        default: return $0.name.hasPrefix("flip-")
        }
    }

    /// Seek targets as fractions of the duration: before the start, inside, at and past the end.
    static let fractions: [Double] = [0.5, -0.1, 0.97, 0.25, 1.0, 1.3, 0.51, 0, 0.75, 0.1]

    @Test(arguments: damaged)
    func seeksComplete(_ media: BrokenMedia) async throws {
        let dir = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(dir) }
        let path = try media.write(in: dir)
        let player = Player(clock: .untimed, audio: true)
        let item = PlayerItem(url: path)
        player.replaceCurrentItem(with: item)
        do {
            try await waitUntil("\(media.name) to load or fail") { item.status != .unknown }
        } catch {
            // A hung player may hold its lock: leave it to a thread of its own.
            Thread.detachNewThread { player.invalidate() }
            throw error
        }
        guard item.status == .readyToPlay else {
            // Damage in the index: this file fails to open, which BrokenMediaPlaybackTests checks.
            #expect(item.status == .failed && item.error != nil, "\(media.name): \(item.status)")
            player.invalidate()
            return
        }
        let duration = item.duration.isNumeric ? item.duration.seconds : 1
        var landed = 0
        for (index, fraction) in Self.fractions.enumerated() {
            let exact = index % 2 == 0
            let tolerance: MediaTime = exact ? .zero : .positiveInfinity
            let target = MediaTime(seconds: duration * fraction)
            let finished = try? await withDeadline("the seek to \(fraction) of the duration", timeout: .seconds(30)) {
                await player.seek(to: target, toleranceBefore: tolerance, toleranceAfter: tolerance)
            }
            guard let finished else {
                Issue.record("\(media.name): seek to \(fraction) of the duration did not complete in 30 s")
                // A hung player may hold its lock: leave it to a thread of its own.
                Thread.detachNewThread { player.invalidate() }
                return
            }
            if finished { landed += 1 }
            if index == 4 { player.play() }
        }
        // Nothing superseded these seeks (each was awaited): all landed unless the item failed on the way.
        if item.status == .readyToPlay {
            #expect(landed == Self.fractions.count, "\(media.name): \(landed) of \(Self.fractions.count) seeks landed")
            #expect(player.currentItem === item)
        } else {
            #expect(item.error != nil, "\(media.name) failed without an error")
        }
        player.invalidate()
    }
}
