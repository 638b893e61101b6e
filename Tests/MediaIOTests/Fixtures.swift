import Foundation
import MediaIO
import Testing

/// The committed clips in Media/ and the references ffmpeg made for them (Media/make-media.sh).
enum Fixtures {
    static let mediaDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Media")

    static let videoClips = ["a.mp4", "b.mp4", "c.webm", "rotated.mp4", "offset.ts"]

    static func path(_ name: String) -> String { mediaDirectory.appendingPathComponent(name).path }

    /// One decoded frame as the reference tools see it.
    struct ReferenceFrame {
        var seconds: Double
        var md5: String
    }

    /// The md5 column of `ffmpeg -f framemd5` and the frame times ffprobe reports, zipped.
    static func reference(_ clip: String) throws -> [ReferenceFrame] {
        let md5Text = try String(contentsOfFile: path("ref/\(clip).framemd5"), encoding: .utf8)
        let md5s = md5Text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces))
        }
        let timeText = try String(contentsOfFile: path("ref/\(clip).times"), encoding: .utf8)
        let times = timeText.split(separator: "\n").map { Double($0)! }
        try #require(md5s.count == times.count, "reference lists of \(clip) disagree")
        try #require(!md5s.isEmpty)
        return zip(times, md5s).map { ReferenceFrame(seconds: $0, md5: $1) }
    }

    /// The reference frame on screen at `seconds`: the greatest time not after it, the first for earlier times.
    static func frameOnScreen(at seconds: Double, in frames: [ReferenceFrame]) -> Int {
        var index = 0
        for (i, frame) in frames.enumerated() where frame.seconds <= seconds + 1e-9 { index = i }
        return index
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("playctl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
