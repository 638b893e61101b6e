import Foundation
import Loading
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// A remote poster pays for its header and the samples its frame needs, not for a stream from byte 0 cut off once
/// the frame decoded: each request is a byte range ending where the need ends, counted on the server's side.
@Suite(
    "Poster bytes on the wire",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct PosterBytesTests {
    @Test(
        "a video poster's responses carry at most 2x its header and first frame's samples, each a bounded range",
        arguments: ["hd.mp4", "a.mp4", "mid.mp4"])
    func bytesOfTheNeed(clip: String) async throws {
        let marker = "poster-bytes-\(clip)-\(UUID().uuidString.prefix(8))"
        let pipeline = PosterPipeline(loading: RemoteLoading(cache: ByteCache()))
        let url = TestHTTPServer.url("\(clip)?\(marker)", over: .mbit8)
        let poster = try await pipeline.poster(for: PosterRequest(source: url, width: 320, height: 180, fit: .fill))
        #expect(poster.image.width == 320)

        // The need, from the file: its sample index's first keyframe and the reordering depth after it.
        let local = TestHTTPServer.localPath(clip)
        let need = try #require(try Demuxer(url: local).firstFrameEnd())
        let size = try #require(try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int)
        let responses = await TestHTTPServer.responses(containing: marker, atLeast: 1)
        let sent = responses.reduce(Int64(0)) { $0 + $1.bytesSent }
        #expect(!responses.isEmpty)
        #expect(responses.allSatisfy { $0.status == 206 && $0.range.hasPrefix("bytes=") && !$0.range.hasSuffix("-") })
        #expect(
            sent <= 2 * need, "\(clip): \(sent) bytes sent for a need of \(need) (file \(size)): \(responses)")
    }

    @Test("a picture's poster (a server's thumbnail) comes in one request, the whole file")
    func pictureInOneRequest() async throws {
        let marker = "poster-picture-\(UUID().uuidString.prefix(8))"
        let pipeline = PosterPipeline(loading: RemoteLoading(cache: ByteCache()))
        let url = TestHTTPServer.url("still.jpg?\(marker)", over: .mbit8)
        let poster = try await pipeline.poster(for: PosterRequest(source: url, width: 160, height: 90, fit: .fill))
        #expect(poster.image.width == 160)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: TestHTTPServer.localPath("still.jpg"))[.size] as? Int)
        let responses = await TestHTTPServer.responses(containing: marker, atLeast: 1)
        #expect(responses.count == 1, "\(responses)")
        #expect(
            responses.allSatisfy { $0.bytesSent >= Int64(size) && $0.bytesSent < Int64(size) + 1024 }, "\(responses)")
    }
}
