import Foundation
import PlaybackTesting

/// Images made with ffmpeg for the poster tests, in a temporary folder.
enum PosterImages {
    /// Makes `name` (its extension says the format) of `width`x`height` from a test pattern.
    static func make(_ name: String, width: Int, height: Int, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { throw FixtureError("no ffmpeg") }
        let result = try ProcessRunner.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)",
                "-frames:v", "1", path,
            ])
        guard result.succeeded else { throw FixtureError("ffmpeg could not make \(name)") }
        return path
    }
}
