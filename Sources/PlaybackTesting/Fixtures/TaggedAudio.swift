import Foundation

/// Audio files with tags, chapters and a cover (Media/still.jpg as an attached picture), made by ffmpeg for the
/// metadata tests.
public enum TaggedAudio {
    /// The tags every file gets.
    public static let tags = ["title": "Test Title", "artist": "Test Artist", "album": "Test Album", "date": "2024"]
    /// The chapters every file that can hold them gets: 0-1 s "One", 1-2 s "Two".
    public static let chapters = [(0.0, 1.0, "One"), (1.0, 2.0, "Two")]

    /// A 2 s tone as `name` (its extension says the format: mp3, flac, m4a) in `directory`.
    /// - Throws: `FixtureError` when ffmpeg is missing or fails.
    public static func make(_ name: String, in directory: URL) throws -> String {
        guard let ffmpeg = ProcessRunner.findExecutable("ffmpeg") else { throw FixtureError("ffmpeg is not in PATH") }
        let metadata = directory.appendingPathComponent("\(name).ffmetadata")
        var text = ";FFMETADATA1\n"
        for (key, value) in tags.sorted(by: { $0.key < $1.key }) { text += "\(key)=\(value)\n" }
        for (start, end, title) in chapters {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(start * 1000))\nEND=\(Int(end * 1000))\ntitle=\(title)\n"
        }
        try text.write(to: metadata, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent(name).path
        let codec: [String] =
            switch (name as NSString).pathExtension {
            case "mp3": ["-c:a", "libmp3lame", "-id3v2_version", "3"]
            case "flac": ["-c:a", "flac"]
            default: ["-c:a", "aac"]
            }
        let result = try ProcessRunner.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-i",
                MediaFixtures.path("still.jpg"), "-i", metadata.path, "-map", "0", "-map", "1", "-map_metadata", "2",
                "-map_chapters", "2", "-c:v", "copy", "-disposition:v", "attached_pic",
            ] + codec + [path])
        guard result.succeeded else { throw FixtureError("ffmpeg could not make \(name)") }
        return path
    }
}
