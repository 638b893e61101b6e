import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// An item's time-pitch algorithm as the player plays it: at rate 2 `varispeed` sounds an octave up (a.mp4's 440 Hz
/// sine at 880 Hz in what the player hands out), the default and `spectral` keep 440 Hz.
@Suite("Audio time-pitch algorithm")
struct TimePitchTests {
    /// The dominant frequency of the audio a player hands out while it plays a.mp4 at rate 2 with `algorithm`.
    static func playedFrequency(_ algorithm: AudioTimePitchAlgorithm?) async throws -> Double {
        let item = PlayerItem(url: MediaFixtures.path("a.mp4"))
        if let algorithm { item.audioTimePitchAlgorithm = algorithm }
        let player = Player(clock: .untimed, audio: true)
        defer { player.invalidate() }
        let buffers = Locked<[AudioBuffer]>([])
        player.add(AudioTap { buffer in buffers.withLock { $0.append(buffer) } })
        let events = player.events()
        player.replaceCurrentItem(with: item)
        player.rate = 2
        _ = try await itemEnd(in: events, of: item.url)
        await player.callbacksDelivered()
        let played = buffers.withLock { $0 }
        try #require(!played.isEmpty)
        try #require(played[0].channels == 2)
        return RateTests.frequency(played.flatMap(\.samples), sampleRate: Double(played[0].sampleRate))
    }

    @Test("at rate 2: varispeed an octave up, time-domain (the default) and spectral at the same pitch")
    func pitches() async throws {
        let varispeed = try await Self.playedFrequency(.varispeed)
        #expect(abs(varispeed - 880) <= 880 * 0.03, "\(varispeed) Hz")
        for algorithm in [nil, AudioTimePitchAlgorithm.spectral] {
            let kept = try await Self.playedFrequency(algorithm)
            #expect(abs(kept - 440) <= 440 * 0.03, "\(String(describing: algorithm)): \(kept) Hz")
        }
        #expect(PlayerItem(url: "x.mp4").audioTimePitchAlgorithm == .timeDomain, "the default, as on iOS")
    }
}
