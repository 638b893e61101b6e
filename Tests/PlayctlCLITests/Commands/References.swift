import Foundation
import Testing

@testable import PlayctlCLI

/// The committed reference outputs in `Media/ref/` (made by `Media/make-media.sh` with ffmpeg and ffprobe).
enum References {
    /// Clips with a video stream.
    static let videoClips = ["a.mp4", "b.mp4", "c.webm", "rotated.mp4", "offset.ts"]
    /// Every clip, the audio-only one included.
    static let allClips = videoClips + ["tone.m4a"]

    /// One decoded frame as ffmpeg (md5) and ffprobe (time) see it.
    struct Frame: Equatable {
        /// The time from the start of the media, as the six-decimal text ffprobe's list holds.
        var time: String
        /// The md5 column of `ffmpeg -f framemd5`.
        var md5: String
        /// `time` in whole microseconds.
        var microseconds: Int64 { References.microseconds(time)! }
        /// The line `frames --md5` prints for this frame.
        var line: String { time + " " + md5 }
    }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOfFile: CLIProcess.media(relativePath), encoding: .utf8)
    }

    /// `Media/ref/<clip>.framemd5`'s md5 column zipped with `Media/ref/<clip>.times`.
    static func frames(_ clip: String) throws -> [Frame] {
        let md5s = try text("ref/\(clip).framemd5").split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: ",").last!.drop { $0 == " " })
        }
        let times = try text("ref/\(clip).times").split(separator: "\n").map(String.init)
        try #require(md5s.count == times.count && !md5s.isEmpty, "reference lists of \(clip) disagree")
        return zip(times, md5s).map { Frame(time: $0, md5: $1) }
    }

    /// `Media/ref/<clip>.probe.json`: ffprobe's view of the clip.
    static func probe(_ clip: String) throws -> JSONValue {
        try JSONValue(parsing: try text("ref/\(clip).probe.json"))
    }

    /// A decimal number of seconds (`-0.007000`, `8.3`) as whole microseconds, exactly; nil if it is not one.
    static func microseconds(_ text: String) -> Int64? {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 6, fraction.allSatisfy(\.isNumber) else { return nil }
        fraction += String(repeating: "0", count: 6 - fraction.count)
        let value = whole * 1_000_000 + Int64(fraction)!
        return negative ? -value : value
    }

    /// The index of the frame on screen at `microseconds`: the latest frame not after it, or the first frame.
    static func onScreen(at microseconds: Int64, in frames: [Frame]) -> Int {
        frames.lastIndex { $0.microseconds <= microseconds } ?? 0
    }
}
