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

    /// Where, in frames, `probe` (interleaved stereo) best matches `signal`: the offset of the highest normalized
    /// cross-correlation, and that correlation. Cheap enough not to slow the real-time tests running beside it: a
    /// coarse search every 8th frame on the right channel (pink noise: neighbouring frames alike), then every frame
    /// within 16 of the best on the left one (white noise: one frame off correlates not at all).
    static func align(_ probe: ArraySlice<Float>, in signal: [Float]) -> (offset: Int, correlation: Double) {
        let frames = probe.count / 2
        guard signal.count / 2 >= frames else { return (0, -1) }
        let last = signal.count / 2 - frames
        let coarse = correlate(probe, signal, channel: 1, offsets: stride(from: 0, through: last, by: 8), step: 8)
        let range = max(coarse.offset - 16, 0)...min(coarse.offset + 16, last)
        return correlate(probe, signal, channel: 0, offsets: range, step: 1)
    }

    /// The best of `offsets` for `probe` in `signal` on `channel`, comparing every `step`-th frame.
    private static func correlate(
        _ probe: ArraySlice<Float>, _ signal: [Float], channel: Int, offsets: some Sequence<Int>, step: Int
    ) -> (offset: Int, correlation: Double) {
        let p = Array(probe)
        let points = stride(from: 0, to: p.count / 2, by: step).map { $0 }
        let probeEnergy = points.reduce(0.0) { $0 + Double(p[$1 * 2 + channel] * p[$1 * 2 + channel]) }
        var best = (offset: 0, correlation: -1.0)
        for offset in offsets {
            var (dot, energy) = (0.0, 0.0)
            for i in points {
                let x = Double(signal[(offset + i) * 2 + channel])
                dot += Double(p[i * 2 + channel]) * x
                energy += x * x
            }
            guard energy > 0 else { continue }
            let correlation = dot / (probeEnergy * energy).squareRoot()
            if correlation > best.correlation { best = (offset, correlation) }
        }
        return best
    }
}

extension PulseSupport {
    /// How a recording follows the decoded samples (``follow(_:from:_:from:)``).
    struct Walk: CustomStringConvertible {
        var framesAtFullVolume = 0
        var framesAtHalfVolume = 0
        /// Silent frames between samples (the device ran dry), and how many runs of them.
        var silentFrames = 0
        var silentRuns = 0
        /// The recorded sample (interleaved index from the start of the walk) that is neither the next decoded one
        /// times the volume nor silence, if any.
        var mismatch: (index: Int, recorded: Float, decoded: Float)?

        var description: String {
            "\(framesAtFullVolume) frames at volume 1, then \(framesAtHalfVolume) at 0.5; \(silentFrames) silent frames "
                + "in \(silentRuns) underrun(s)" + (mismatch.map { "; mismatch \($0)" } ?? "")
        }
    }

    /// Walks `recorded` from `recordedStart` and `decoded` from `decodedStart` (interleaved stereo): each recorded
    /// sample is the next decoded one times the volume (1, then 0.5 from some point on), or silence inserted.
    static func follow(_ recorded: [Float], from recordedStart: Int, _ decoded: [Float], from decodedStart: Int) -> Walk
    {
        var walk = Walk()
        var (r, d) = (recordedStart, decodedStart)
        var gain: Float = 1
        var silent = false
        while r + 1 < recorded.count, d + 1 < decoded.count {
            let frame = (recorded[r], recorded[r + 1])
            let expected = (decoded[d], decoded[d + 1])
            if abs(frame.0 - gain * expected.0) < 1e-6, abs(frame.1 - gain * expected.1) < 1e-6 {
                if gain == 1 { walk.framesAtFullVolume += 1 } else { walk.framesAtHalfVolume += 1 }
                (r, d, silent) = (r + 2, d + 2, false)
            } else if gain == 1, abs(frame.0 - expected.0 / 2) < 1e-6, abs(frame.1 - expected.1 / 2) < 1e-6 {
                gain = 0.5
            } else if frame == (0, 0) {
                if !silent { walk.silentRuns += 1 }
                (walk.silentFrames, r, silent) = (walk.silentFrames + 1, r + 2, true)
            } else {
                walk.mismatch = (r - recordedStart, frame.0, gain * expected.0)
                break
            }
        }
        return walk
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
        do {
            try await waitUntil("", timeout: .seconds(timeout), interval: .milliseconds(20)) { contains(match) }
            return true
        } catch is WaitTimedOut {
            return false
        }
    }
}
