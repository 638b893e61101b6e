import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

@Suite("Playback rates under the manual clock: frames follow the media playhead, audio is time-stretched")
struct RateTests {
    /// What a player showed and played: frame md5s in order, and the tap's audio.
    final class Capture: Sendable {
        private final class Store: Sendable {
            let state = Locked((md5s: [String](), samples: [Float](), times: [MediaTime]()))
        }
        private let store = Store()
        let tap: AudioTap

        init(_ player: Player, layer: PlayerLayer) {
            let store = self.store
            tap = AudioTap { buffer in
                store.state.withLock {
                    $0.samples += buffer.samples
                    $0.times.append(buffer.time)
                }
            }
            player.add(tap)
            layer.onFrame { frame in
                let md5 = frame.md5()
                store.state.withLock { $0.md5s.append(md5) }
            }
        }

        var md5s: [String] { store.state.withLock { $0.md5s } }
        var samples: [Float] { store.state.withLock { $0.samples } }
        var times: [MediaTime] { store.state.withLock { $0.times } }
    }

    /// Frequency of interleaved stereo audio from the zero crossings of its mono mix, skipping the first tenth.
    static func frequency(_ samples: [Float], sampleRate: Double = 48_000) -> Double {
        let mono = stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] + samples[$0 + 1] }
        let start = mono.count / 10
        var crossings = 0
        for i in (start + 1)..<mono.count where (mono[i - 1] < 0) != (mono[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(mono.count - start) / sampleRate)
    }

    /// Plays a.mp4 at `rate` for `clockSeconds` (in steps of one clock second) and checks the playhead, every frame
    /// shown against ffmpeg's references, and the tap's audio: about 48000 sample frames per clock second, 440 Hz.
    func play(rate: Float, clockSeconds: Int) async throws {
        let reference = try MediaFixtures.referenceMD5s("a.mp4")
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let capture = Capture(player, layer: layer)
        player.rate = rate
        await clock.advance(by: .zero)
        #expect(player.timeControlStatus == .playing && player.rate == rate)
        var framesPerSecond: [Int] = []
        for second in 1...clockSeconds {
            let before = capture.tap.framesReceived
            await clock.advance(bySeconds: 1)
            framesPerSecond.append(capture.tap.framesReceived - before)
            let media = Double(rate) * Double(second)
            #expect(player.currentTime() == MediaTime(seconds: media), "rate \(rate) after \(second) s")
            // Every frame up to the playhead (30 fps: frames 0...30 × media seconds), in order, as ffmpeg decodes them.
            let shown = capture.md5s
            #expect(shown == Array(reference[0...Int((media * 30).rounded())]), "rate \(rate) after \(second) s")
        }
        let total = Double(capture.tap.framesReceived) / Double(clockSeconds)
        print("rate \(rate): audio frames per clock second \(framesPerSecond), mean \(total)")
        #expect(abs(total - 48_000) <= 48_000 * 0.05, "rate \(rate): \(framesPerSecond)")
        for count in framesPerSecond.dropFirst() {
            #expect(abs(Double(count) - 48_000) <= 48_000 * 0.05, "rate \(rate): \(framesPerSecond)")
        }
        let frequency = Self.frequency(capture.samples)
        print("rate \(rate): tap pitch \(frequency) Hz")
        #expect(abs(frequency - 440) <= 440 * 0.02, "rate \(rate): \(frequency) Hz")
        // Buffer times are media times, rising, and none is ahead of the playhead.
        let times = capture.times
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(times.allSatisfy { $0.seconds <= Double(rate) * Double(clockSeconds) + 1e-6 })
    }

    @Test("rate 2: one clock second plays two media seconds, with half as many samples per media second")
    func double() async throws {
        try await play(rate: 2, clockSeconds: 2)
    }

    @Test("rate 0.5: one clock second plays half a media second, stretched to a full second of audio")
    func half() async throws {
        try await play(rate: 0.5, clockSeconds: 3)
    }

    @Test("changing the rate while playing re-stretches the queued audio from the playhead")
    func changeWhilePlaying() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let capture = Capture(player, layer: layer)
        player.play()
        await clock.advance(bySeconds: 1)
        let atRateOne = capture.tap.framesReceived
        player.rate = 4
        await clock.advance(bySeconds: 1)
        #expect(player.currentTime() == MediaTime(seconds: 5))
        let atRateFour = capture.tap.framesReceived - atRateOne
        print("rate 1 then 4: \(atRateOne) then \(atRateFour) frames")
        #expect(abs(Double(atRateOne) - 48_000) <= 48_000 * 0.05)
        #expect(abs(Double(atRateFour) - 48_000) <= 48_000 * 0.05)
        #expect(abs(Self.frequency(capture.samples) - 440) <= 440 * 0.02)
        #expect(capture.md5s == Array(try MediaFixtures.referenceMD5s("a.mp4")[0...150]))
    }

    @Test("a seek at rate 2 restarts the stretched audio at the target")
    func seekAtRateTwo() async throws {
        let clock = ManualClock()
        let player = Player(item: PlayerItem(url: MediaFixtures.path("a.mp4")), clock: .manual(clock), audio: true)
        defer { player.invalidate() }
        let layer = PlayerLayer(player: player)
        let capture = Capture(player, layer: layer)
        player.rate = 2
        await clock.advance(bySeconds: 0.5)
        let before = capture.tap.framesReceived
        let timesBefore = capture.times.count
        let finished = await player.seek(to: MediaTime(seconds: 3), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        await clock.advance(bySeconds: 1)
        #expect(player.currentTime() == MediaTime(seconds: 5))
        let after = capture.times.dropFirst(timesBefore)
        #expect(after.first == MediaTime(seconds: 3), "\(after.prefix(3))")
        let received = capture.tap.framesReceived - before
        #expect(abs(Double(received) - 48_000) <= 48_000 * 0.05, "\(received)")
        #expect(layer.currentFrame?.md5() == (try MediaFixtures.referenceMD5s("a.mp4"))[150])
    }
}
