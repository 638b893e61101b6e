import Foundation
import Loading
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// A remote storyboard pays for the header and its keyframes, not for the file: each keyframe a byte range of its
/// own sample, counted on the server's side (nginx's bytes sent, headers included).
@Suite(
    "Thumbnail bytes on the wire",
    .enabled(if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
struct ThumbnailBytesTests {
    @Test("a 10-minute 1080p storyboard every 10 s over 8 Mbit/s: 60 tiles, ffmpeg's keyframes, at most 1.3x the need")
    func storyboardOverTheLink() async throws {
        let local = TestHTTPServer.localPath("long.mp4")
        try #require(FileManager.default.fileExists(atPath: local), "scripts/make-http-media.sh makes long.mp4")
        let marker = "thumbnail-bytes-\(UUID().uuidString.prefix(8))"
        let url = TestHTTPServer.url("long.mp4?\(marker)", over: .mbit8)
        let cache = ByteCache()
        let generator = ThumbnailGenerator(
            url: url, options: ThumbnailOptions(width: 160, height: 90), loading: RemoteLoading(cache: cache))
        var tiles: [Thumbnail] = []
        for try await tile in generator.thumbnails(every: 10) { tiles.append(tile) }
        generator.close()
        #expect(tiles.count == 60)

        // Each tile is ffmpeg's keyframe nearest its time, scaled the same way.
        let reference = try ThumbnailReference.frames(local, width: 160, height: 90, keyframesOnly: true)
        for tile in tiles {
            let nearest = reference.map { abs($0.seconds - tile.requestedSeconds) }.min()!
            let frame = try #require(ThumbnailReference.frame(at: tile.time.seconds, in: reference))
            #expect(abs(frame.seconds - tile.requestedSeconds) <= nearest + 0.1, "at \(tile.requestedSeconds)")
            #expect(tile.image.md5() == frame.md5, "at \(tile.requestedSeconds)")
        }

        // The need: the header (everything before the first sample) and each chosen keyframe's sample.
        let demuxer = try Demuxer(url: local)
        let keyframes = demuxer.indexedKeyframes()
        let chosen = Set(tiles.compactMap(\.keyframeOffset))
        let header = try #require(keyframes.first?.offset)
        let need = header + keyframes.filter { chosen.contains($0.offset) }.reduce(Int64(0)) { $0 + Int64($1.size) }
        let responses = await TestHTTPServer.responses(containing: marker, atLeast: chosen.count)
        let sent = responses.reduce(Int64(0)) { $0 + $1.bytesSent }
        #expect(chosen.count == 60)
        #expect(responses.allSatisfy { $0.status == 206 && !$0.range.hasSuffix("-") }, "\(responses.prefix(5))")
        #expect(
            Double(sent) <= 1.3 * Double(need),
            "\(sent) bytes sent for a need of \(need) (\(responses.count) responses, file 30 MB)")
    }
}
