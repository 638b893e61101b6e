import Foundation
import PlaybackTesting
import Testing

/// The frames ffmpeg decodes from the ladder's progressive files (the encode every rendition is a stream copy of):
/// the oracle of a play through the stream session, frame for frame.
enum LadderReference {
    /// The md5 `ffmpeg -f framemd5` gives each video frame of rung `index` (0: 360p ... 3: 1080p), in order.
    static func md5s(rung index: Int) throws -> [String] {
        let ffmpeg = try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is the reference")
        let file = LadderMedia.path("progressive/\(LadderMedia.rungs[index].name).mp4")
        let result = try ProcessRunner.run(
            ffmpeg, ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"], standardOutput: .capture,
            timeout: 120)
        let md5s = result.outputText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        try #require(md5s.count == 360, "\(file): \(md5s.count) frames")
        return md5s
    }

    /// A path of the served folder that is the ladder under a name of its own (a symbolic link), so that the
    /// requests of one test are told apart in nginx's log from those of other suites running beside it.
    static func privateLadder() throws -> String {
        let root = try #require(TestHTTPServer.root)
        let name = "ladder-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createSymbolicLink(
            atPath: "\(root)/\(name)", withDestinationPath: LadderMedia.directory)
        return name
    }

    /// The requests nginx logged under `prefix` (a path of the served folder, without its leading slash).
    static func requests(under prefix: String) -> [TestHTTPServer.LoggedResponse] {
        TestHTTPServer.responses(containing: "/\(prefix)/")
    }
}
