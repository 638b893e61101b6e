import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// The PulseAudio output against a real daemon (`scripts/pulse.sh`: a null sink whose monitor is recorded). These
/// fail, with the reason, when no server was started for them.
@Suite("PulseAudio output (a real daemon)", .serialized)
struct PulseOutputTests {
    @Test("what reaches the sink is the decoded audio, sample for sample, and the volume scales it")
    func audioReachesTheServer() async throws {
        let server = try PulseSupport.server()
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let clip = try await PulseSupport.noiseClip(seconds: 6, in: directory)
        let decoded = try PulseSupport.decodedSamples(clip)
        let player = Player(item: PlayerItem(url: clip), clock: .host, audioOutput: .pulse(sink: nil, server: server))
        defer { player.invalidate() }
        let log = EventLog(player)
        // The recording starts first: a new stream's first milliseconds may be lost, and it may start late; the
        // comparison aligns the two instead of timing the start.
        async let recording = PulseServer.record(seconds: 4.5, from: server)
        try await Task.sleep(for: .milliseconds(300))
        player.play()
        try await Task.sleep(for: .seconds(3))
        player.volume = 0.5
        let recorded = try await recording
        #expect(log.audioOutputs.first?.0 == "pulse", "\(log.audioOutputs)")
        #expect(player.isPlayingToAudioDevice)
        // A 1024-frame probe from a second into what was recorded, found in the decoded track.
        let probeStart = 48_000 * 2
        try #require(recorded.count > 48_000 * 2 * 3, "recorded \(recorded.count / 2) frames")
        let probe = recorded[probeStart..<(probeStart + 1024 * 2)]
        let (offset, correlation) = PulseSupport.align(probe, in: Array(decoded.prefix(48_000 * 2 * 4)))
        #expect(correlation > 0.999, "best correlation \(correlation) at \(offset)")
        // From there on, every sample recorded is the decoded one times the volume: 1, then 0.5 (one change).
        let shift = offset * 2 - probeStart
        var gains: [(gain: Float, from: Int, count: Int)] = []
        var worst: Float = 0
        for i in probeStart..<min(recorded.count, decoded.count - shift) where abs(decoded[i + shift]) > 0.01 {
            let gain: Float = abs(recorded[i] - decoded[i + shift]) < 1e-6 ? 1 : 0.5
            worst = max(worst, abs(recorded[i] - gain * decoded[i + shift]))
            if gains.last?.gain == gain { gains[gains.count - 1].count += 1 } else { gains.append((gain, i, 1)) }
        }
        let summary = gains.map { "\($0.gain)x\($0.count / 2) frames from \(($0.from - probeStart) / 2)" }
        #expect(gains.map(\.gain) == [1, 0.5] && worst < 1e-6, "\(summary), largest difference \(worst)")
        #expect(gains.allSatisfy { $0.count > 48_000 / 2 }, "\(summary)")
        print(
            "pulse recording: probe at recording frame \(probeStart / 2) matched decoded frame \(offset)"
                + " (correlation \(correlation)); \(summary.joined(separator: ", ")), largest difference \(worst)")
    }
}
