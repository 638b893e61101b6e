import Foundation
import Locking

extension LadderMedia {
    /// Why the reference could not be made: ffmpeg missing, or a frame count other than the ladder's.
    public struct ReferenceFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The md5 `ffmpeg -f framemd5` gives each video frame of rung `index`'s progressive file (0: 360p ... 3: 1080p;
    /// every rendition is a stream copy of its encode), in order: the oracle of a play through a stream session,
    /// frame for frame. ffmpeg runs once per rung and process, on a thread of its own: a test that waited on it
    /// holding a cooperative-pool thread (2 of them on 2 CPUs) starved the suites beside it.
    public static func frameMD5s(rung index: Int) async throws -> [String] {
        if let known = computed.withLock({ $0[index] }) { return known }
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else {
            throw ReferenceFailure(description: "ffmpeg is the reference and is not installed")
        }
        guard rungs.indices.contains(index) else { throw ReferenceFailure(description: "no rung \(index)") }
        let file = path("progressive/\(rungs[index].name).mp4")
        let result = try await ProcessRunner.run(
            ffmpeg, ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"], standardOutput: .capture,
            timeout: 120)
        let md5s = result.outputText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        guard md5s.count == Int(duration * 30) else {
            throw ReferenceFailure(description: "\(file): \(md5s.count) frames, not \(Int(duration * 30))")
        }
        computed.withLock { $0[index] = md5s }
        return md5s
    }

    /// The md5s computed so far, by rung.
    private static let computed = Locked<[Int: [String]]>([:])

    /// The samples `ffmpeg -f f32le` decodes from the 360p progressive file's audio (48 kHz stereo, interleaved;
    /// the audio of `dash/` and `hls-audio/`'s renditions is a stream copy of it), with its MP4 edit list applied: the
    /// AAC encoder's 1024 priming samples, which the renditions carry without an edit list, are not in it.
    public static func audioSamples() async throws -> [Float] {
        if let known = audio.withLock({ $0 }) { return known }
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else {
            throw ReferenceFailure(description: "ffmpeg is the reference and is not installed")
        }
        let file = path("progressive/360p.mp4")
        let result = try await ProcessRunner.run(
            ffmpeg, ["-v", "error", "-i", file, "-map", "0:a:0", "-f", "f32le", "-"], standardOutput: .capture,
            timeout: 120)
        guard result.succeeded, result.output.count % 8 == 0, !result.output.isEmpty else {
            throw ReferenceFailure(description: "\(file): ffmpeg decoded \(result.output.count) bytes of audio")
        }
        let samples = result.output.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        audio.withLock { $0 = samples }
        return samples
    }

    /// The AAC encoder's priming: sample frames before the progressive file's first (its edit list hides them), at
    /// the start of the audio renditions.
    public static let audioPriming = 1024

    private static let audio = Locked<[Float]?>(nil)
}
