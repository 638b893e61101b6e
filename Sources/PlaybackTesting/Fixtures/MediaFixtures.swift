import Foundation

/// The committed clips in the repository's `Media/` folder and the references ffmpeg and ffprobe made for them
/// (`Media/make-media.sh`): `Media/ref/<clip>.framemd5`, `.times` and `.probe.json`.
public enum MediaFixtures {
    /// The `Media/` folder.
    public static let directory: URL = Repository.url("Media")

    /// The clips with a video stream.
    public static let videoClips = ["a.mp4", "b.mp4", "c.webm", "rotated.mp4", "offset.ts"]

    /// Every clip: the video clips and the audio-only `tone.m4a`.
    public static let allClips = videoClips + ["tone.m4a"]

    /// The path of `name` in `Media/` (`"a.mp4"`, `"ref/a.mp4.times"`). The file need not exist.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The text of the file `name` in `Media/`.
    /// - Throws: Foundation's error when the file cannot be read as UTF-8.
    public static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// The bytes of the file `name` in `Media/`.
    /// - Throws: Foundation's error when the file cannot be read.
    public static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The md5 column of `Media/ref/<clip>.framemd5` (what `ffmpeg -f framemd5` prints for the first video stream),
    /// one per frame in presentation order.
    /// - Throws: when the list cannot be read or holds no frame.
    public static func referenceMD5s(_ clip: String) throws -> [String] {
        let md5s = try text("ref/\(clip).framemd5").split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { String($0.trimmingCharacters(in: .whitespaces)) }
        }
        guard !md5s.isEmpty else { throw FixtureError("Media/ref/\(clip).framemd5 lists no frame") }
        return md5s
    }

    /// Each frame's time (`Media/ref/<clip>.times`, as ffprobe printed it) and md5 (`referenceMD5s`), in
    /// presentation order.
    /// - Throws: when a list cannot be read, is empty, or the two lists disagree on the number of frames.
    public static func referenceFrames(_ clip: String) throws -> [ReferenceFrame] {
        let md5s = try referenceMD5s(clip)
        let times = try text("ref/\(clip).times").split(separator: "\n").map(String.init)
        guard times.count == md5s.count else {
            throw FixtureError("reference lists of \(clip) disagree: \(times.count) times, \(md5s.count) md5s")
        }
        return zip(times, md5s).map { ReferenceFrame(time: $0, md5: $1) }
    }
}

/// A fixture that is missing or malformed; `description` says which and how.
public struct FixtureError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in one sentence.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }
}
