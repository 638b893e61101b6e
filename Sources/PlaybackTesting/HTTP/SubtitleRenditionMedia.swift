import Foundation
import MediaCore

/// `subs-hls/` of the served folder (scripts/make-http-media.sh): Media/a.mp4 as HLS with a WebVTT subtitle group
/// of two renditions, English (`en/`) and French (`fr/`, `DEFAULT=YES`), whose cues the script wrote from the lists
/// read here; `master-bad.m3u8` offers a rendition whose playlist is missing and one (`bad/`) whose second segment
/// is missing and third is not WebVTT.
public enum SubtitleRenditionMedia {
    /// One cue the script wrote: its times from the media's start (milliseconds exact) and its text.
    public struct Cue: Sendable, Equatable {
        public var start: MediaTime
        public var end: MediaTime
        public var text: String
    }

    /// The folder on disk, when the server runs.
    public static var directory: String? { TestHTTPServer.root.map { "\($0)/subs-hls" } }

    /// The cues of `language` (`en`, `fr`, `bad`), as `cues-<language>.tsv` lists them.
    public static func cues(_ language: String) throws -> [Cue] {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        let text = try String(contentsOfFile: "\(directory)/cues-\(language).tsv", encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            return Cue(start: milliseconds(fields[0]), end: milliseconds(fields[1]), text: fields[2])
        }
    }

    /// A private name for the folder (a symbolic link made for the caller: its requests are its own in the access
    /// log, and a fresh loader's cache has none of them).
    public static func privateCopy() throws -> String {
        guard let root = TestHTTPServer.root, let directory else { throw CocoaError(.fileNoSuchFile) }
        let name = "subs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createSymbolicLink(atPath: "\(root)/\(name)", withDestinationPath: directory)
        return name
    }

    /// `0.500` as 500/1000.
    private static func milliseconds(_ text: String) -> MediaTime {
        MediaTime(value: Int64((Double(text)! * 1000).rounded()), timescale: 1000)
    }
}
