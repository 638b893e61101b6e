import MediaIO
import PlaybackTesting
import Testing

@Suite("Byte timelines: media time from byte offsets and back")
struct ByteTimelineTests {
    @Test("offset(atSeconds:) inverts seconds(atByte:) along the points and past the last one")
    func inverse() throws {
        let timeline = ByteTimeline(
            points: [(1000, 0), (5000, 1), (7000, 2)], totalLength: 15000, duration: 4)
        for offset: Int64 in [1000, 3000, 5000, 6000, 7000, 11000] {
            let seconds = try #require(timeline.seconds(atByte: offset))
            #expect(timeline.offset(atSeconds: seconds) == offset, "\(offset) B at \(seconds) s")
        }
        #expect(timeline.offset(atSeconds: 4) == 15000)
        #expect(timeline.offset(atSeconds: 9) == 15000)
        #expect(timeline.offset(atSeconds: 0) == 1000)
    }

    @Test("without points the bytes spread evenly over the duration; without a length nothing tells")
    func constantRate() {
        #expect(ByteTimeline(points: [], totalLength: 800, duration: 8).offset(atSeconds: 2) == 200)
        #expect(ByteTimeline(points: [], totalLength: nil, duration: 8).offset(atSeconds: 2) == nil)
    }

    @Test("a clip's timeline from its index says how much of the file the first second needs")
    func fromIndex() throws {
        let demuxer = try Demuxer(url: MediaFixtures.path("a.mp4"))
        let size = Int64(try MediaFixtures.bytes("a.mp4").count)
        let timeline = demuxer.byteTimeline(stream: demuxer.videoTrack!.index, totalLength: size)
        let oneSecond = try #require(timeline.offset(atSeconds: 1))
        #expect(oneSecond > 0 && oneSecond < size)
        let whole = try #require(timeline.offset(atSeconds: timeline.duration ?? 1e9))
        #expect(whole == size)
    }
}
