import Foundation
import PlaybackTesting
import Testing

/// What ffmpeg gives for a storyboard's tiles: the md5 of each frame scaled with `scale=W:H:flags=bicubic` to
/// YUV 4:2:0, by presentation time in seconds, for the keyframes alone (`-skip_frame nokey`) or every frame.
enum ThumbnailReference {
    struct Frame {
        let seconds: Double
        let md5: String
    }

    static func frames(_ path: String, width: Int, height: Int, keyframesOnly: Bool) throws -> [Frame] {
        let ffmpeg = try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is the reference")
        var arguments = ["-hide_banner", "-loglevel", "error", "-noautorotate"]
        if keyframesOnly { arguments += ["-skip_frame", "nokey"] }
        arguments += [
            "-i", path, "-map", "0:v:0", "-vf", "scale=\(width):\(height):flags=bicubic", "-pix_fmt", "yuv420p",
            "-fps_mode", "passthrough", "-f", "framemd5", "-",
        ]
        let result = try ProcessRunner.run(
            ffmpeg, arguments, standardOutput: .capture, standardError: .capture, timeout: 600)
        try #require(result.succeeded, "ffmpeg: \(result.errorText)")
        var timeBase = 1.0
        var frames: [Frame] = []
        for line in result.outputText.split(separator: "\n") {
            if line.hasPrefix("#tb 0: ") {
                let parts = line.dropFirst("#tb 0: ".count).split(separator: "/")
                timeBase = Double(parts[0])! / Double(parts[1])!
            }
            guard !line.hasPrefix("#") else { continue }
            let columns = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard columns.count == 6, let pts = Double(columns[2]) else { continue }
            frames.append(Frame(seconds: pts * timeBase, md5: columns[5]))
        }
        return frames
    }

    /// The frame whose time is `seconds` (within half a millisecond).
    static func frame(at seconds: Double, in frames: [Frame]) -> Frame? {
        frames.first { abs($0.seconds - seconds) < 0.000_5 }
    }

    /// The frame on screen at `seconds`: the last one starting at or before it.
    static func onScreen(at seconds: Double, in frames: [Frame]) -> Frame? {
        frames.last { $0.seconds <= seconds + 0.000_5 } ?? frames.first
    }
}
