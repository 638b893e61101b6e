import Foundation

/// An MP4 encrypted with common encryption (`cenc-aes-ctr`) by ffmpeg's own muxer, for the encryption tests.
public enum EncryptedMedia {
    /// The key the clip is encrypted with.
    public static let key = "76a6c65c5ea762046bd749a2e632ccbb"
    /// Its key id.
    public static let keyID = "a7e61c373e219033c21091fa607bf3b8"

    /// `Media/<clip>` encrypted (stream copy) into `directory`; returns the new file's path.
    /// - Throws: `FixtureError` when ffmpeg is missing or fails.
    public static func make(from clip: String = "a.mp4", in directory: URL) throws -> String {
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { throw FixtureError("ffmpeg is not in PATH") }
        let path = directory.appendingPathComponent("encrypted-\(clip)").path
        let result = try ProcessRunner.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-i", MediaFixtures.path(clip), "-c", "copy",
                "-encryption_scheme", "cenc-aes-ctr", "-encryption_key", key, "-encryption_kid", keyID, path,
            ])
        guard result.succeeded else { throw FixtureError("ffmpeg could not encrypt \(clip)") }
        return path
    }
}
