import MediaIO
import PlaybackTesting
import Testing

@testable import Posters

/// What a video's first pictures need of its bytes, read from the header a feed fetches first.
@Suite("First pictures' bytes from a header")
struct FirstPicturesTests {
    @Test(
        "from the first 64 KB: the end of the first 0.2 s of video samples, and the first frame decodes from those bytes",
        arguments: ["a.mp4"])
    func firstFrameFromThosebytes(clip: String) throws {
        let bytes = try MediaFixtures.bytes(clip)
        let url = MediaFixtures.path(clip)
        let total = Int64(bytes.count)
        let end = try #require(FirstPictures.bytes(header: Array(bytes.prefix(64 << 10)), totalLength: total, url: url))
        let whole = try Demuxer(url: url)
        #expect(whole.firstPicturesEnd() == end, "the header alone tells what the whole file's index does")
        // Past the first video packet (the keyframe), short of the file.
        let video = try #require(whole.videoTrack).index
        let packet = Packet()
        var first: (position: Int64, size: Int)?
        while first == nil, try whole.read(into: packet) {
            if packet.streamIndex == video, let position = packet.position { first = (position, packet.size) }
        }
        let keyframe = try #require(first)
        #expect(end >= keyframe.position + Int64(keyframe.size) && end < total, "\(end) of \(total)")
        // Those bytes alone (the rest of the file unread) give the first frame, the same as the whole file.
        let prefix = MemoryByteSource(Array(bytes.prefix(Int(end))), totalLength: total)
        let frame = try StillDecoder.decodeVideoFrame(Demuxer(url: url, source: prefix), at: nil, exact: true)
        #expect(frame.md5() == (try MediaFixtures.referenceFrames(clip))[0].md5)
    }

    @Test(
        "nothing when the header does not tell: Matroska's cues, MPEG-TS, an index after the samples, a header cut short"
    )
    func unknown() throws {
        for clip in ["c.webm", "offset.ts"] {
            let bytes = try MediaFixtures.bytes(clip)
            let header = Array(bytes.prefix(64 << 10))
            #expect(
                FirstPictures.bytes(header: header, totalLength: Int64(bytes.count), url: MediaFixtures.path(clip))
                    == nil, "\(clip)")
        }
        // b.mp4 and rotated.mp4 keep their index (moov) after their samples: their first bytes alone do not open.
        for clip in ["b.mp4", "rotated.mp4"] {
            let bytes = try MediaFixtures.bytes(clip)
            let url = MediaFixtures.path(clip)
            #expect(try Demuxer(url: url).firstPicturesEnd() != nil)
            #expect(FirstPictures.bytes(header: bytes, totalLength: Int64(bytes.count), url: url) == nil, "\(clip)")
        }
        let mp4 = try MediaFixtures.bytes("a.mp4")
        let url = MediaFixtures.path("a.mp4")
        #expect(FirstPictures.bytes(header: Array(mp4.prefix(1000)), totalLength: Int64(mp4.count), url: url) == nil)
        #expect(FirstPictures.bytes(header: [], totalLength: Int64(mp4.count), url: url) == nil)
    }
}
