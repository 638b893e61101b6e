import Foundation
import MediaIO
import PlaybackTesting
import Posters
import Testing

/// The picture under a poster is the frame `playctl frame` shows, before any scaling.
@Suite("Poster frames")
struct PosterFrameTests {
    @Test("a clip's poster at several times is the reference frame on screen then", arguments: MediaFixtures.videoClips)
    func framesAtTimes(clip: String) throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        // Frame times as the reference lists print them select their own frames (MediaTime(printedSeconds:)).
        let times = [nil, 0.5, reference[reference.count / 2].seconds, reference.last!.seconds]
        for time in times as [Double?] {
            let demuxer = try Demuxer(url: MediaFixtures.path(clip))
            let frame = try StillDecoder.decodeVideoFrame(
                demuxer, at: time.map { MediaTime(printedSeconds: $0) }, exact: true)
            let index = time.map { reference.indexOnScreen(atMicroseconds: Int64(($0 * 1e6).rounded())) } ?? 0
            #expect(frame.md5() == reference[index].md5, "\(clip) at \(String(describing: time))")
        }
    }

    @Test("a keyframe poster is a keyframe at or before the time")
    func keyframe() throws {
        let demuxer = try Demuxer(url: MediaFixtures.path("a.mp4"))
        let frame = try StillDecoder.decodeVideoFrame(demuxer, at: MediaTime(seconds: 3.3), exact: false)
        #expect(frame.isKeyframe)
        #expect(frame.time.seconds <= 3.3)
    }

    @Test("reductions: the most halvings that still cover the shown size")
    func reductions() {
        #expect(StillDecoder.reduction(forScale: 1) == 0)
        #expect(StillDecoder.reduction(forScale: 0.6) == 0)
        #expect(StillDecoder.reduction(forScale: 0.5) == 1)
        #expect(StillDecoder.reduction(forScale: 0.3) == 1)
        #expect(StillDecoder.reduction(forScale: 0.25) == 2)
        #expect(StillDecoder.reduction(forScale: 132.0 / 3000) == 3)
    }
}
