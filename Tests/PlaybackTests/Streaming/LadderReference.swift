import Foundation
import PlaybackTesting
import Testing

/// The frames ffmpeg decodes from the ladder's progressive files (the encode every rendition is a stream copy of):
/// the oracle of a play through the stream session, frame for frame.
enum LadderReference {
    /// The md5 ffmpeg gives each video frame of rung `index` (``LadderMedia/frameMD5s(rung:)``).
    static func md5s(rung index: Int) async throws -> [String] {
        try await LadderMedia.frameMD5s(rung: index)
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
