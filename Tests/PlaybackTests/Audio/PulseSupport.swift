import Foundation
import Locking
import MediaIO
import Playback
import PlaybackTesting
import Testing

/// What the PulseAudio tests share: the server (failing, not skipping, without one), their clips, the recording's
/// alignment with the decoded samples.
enum PulseSupport {
    /// The test server's address; without one, throws an error that says how to start one (the test fails).
    static func server() throws -> String {
        guard let address = PulseServer.address else { throw PulseServer.Failure(message: PulseServer.missingReason) }
        return address
    }

    /// A clip of `seconds` made with ffmpeg in `directory`: 160x120 video at 25 fps (a frame counter) and white
    /// noise at 48 kHz, stereo (two different noises), in MP4 (H.264, AAC).
    static func noiseClip(seconds: Int, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("noise-\(seconds)s.mp4").path
        let ffmpeg = try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is needed (scripts/setup.sh)")
        let result = try await ProcessRunner.run(
            ffmpeg,
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=\(seconds)",
                "-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.4:sample_rate=48000:seed=1:d=\(seconds)",
                "-f", "lavfi", "-i", "anoisesrc=color=pink:amplitude=0.4:sample_rate=48000:seed=2:d=\(seconds)",
                "-filter_complex", "[1:a][2:a]amerge=inputs=2[a]", "-map", "0:v", "-map", "[a]",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "256k", "-ar", "48000", path,
            ], standardError: .capture, timeout: 60)
        #expect(result.succeeded, "ffmpeg: \(result.errorText)")
        return path
    }

    /// The clip's audio decoded as the player decodes it (interleaved stereo float at 48 kHz).
    static func decodedSamples(_ path: String) throws -> [Float] {
        let reader = try AudioSampleReader(url: path, sampleRate: 48_000, channels: 2)
        var samples: [Float] = []
        while let buffer = try reader.nextBuffer() { samples += buffer.samples }
        return samples
    }

    /// Where, in frames, `probe` (interleaved stereo, left channel compared) best matches `signal`: the offset of
    /// the highest normalized cross-correlation, and that correlation.
    static func align(_ probe: ArraySlice<Float>, in signal: [Float]) -> (offset: Int, correlation: Double) {
        let left = stride(from: probe.startIndex, to: probe.endIndex, by: 2).map { probe[$0] }
        let channel = stride(from: 0, to: signal.count, by: 2).map { signal[$0] }
        let probeEnergy = left.reduce(0) { $0 + Double($1 * $1) }
        var best = (offset: 0, correlation: -1.0)
        left.withUnsafeBufferPointer { p in
            channel.withUnsafeBufferPointer { s in
                guard s.count >= p.count else { return }
                for offset in 0...(s.count - p.count) {
                    var dot: Float = 0
                    var energy: Float = 0
                    for i in 0..<p.count {
                        let x = s[offset + i]
                        dot += p[i] * x
                        energy += x * x
                    }
                    guard energy > 0 else { continue }
                    let correlation = Double(dot) / (probeEnergy * Double(energy)).squareRoot()
                    if correlation > best.correlation { best = (offset, correlation) }
                }
            }
        }
        return best
    }
}

/// The events a player emitted, collected on its callback executor.
final class EventLog: Sendable {
    let events = Locked<[PlayerEvent]>([])

    init(_ player: Player) {
        player.observeEvents { [events] event in events.withLock { $0.append(event) } }
    }

    var all: [PlayerEvent] { events.withLock { $0 } }

    func contains(_ match: (PlayerEvent.Kind) -> Bool) -> Bool { all.contains { match($0.kind) } }

    /// The audio outputs reported, with their errors.
    var audioOutputs: [(String, String?)] {
        all.compactMap { event in
            guard case .audioOutput(let name, let error) = event.kind else { return nil }
            return (name, error)
        }
    }

    /// Waits until `match` holds for an event, or `timeout` seconds.
    func wait(timeout: Double, for match: @escaping (PlayerEvent.Kind) -> Bool) async throws -> Bool {
        let start = ProcessRunner.monotonicSeconds()
        while !contains(match) {
            if ProcessRunner.monotonicSeconds() - start > timeout { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
