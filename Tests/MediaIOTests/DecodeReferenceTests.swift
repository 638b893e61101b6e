import MediaIO
import PlaybackTesting
import Testing

@Suite("Decoding equals ffmpeg, frame by frame")
struct DecodeReferenceTests {
    @Test("every frame's md5 and time equal the references", arguments: MediaFixtures.videoClips)
    func fullDecode(clip: String) throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        var index = 0
        while let frame = try reader.nextFrame() {
            try #require(index < reference.count, "more frames than ffmpeg decodes in \(clip)")
            #expect(frame.md5() == reference[index].md5, "frame \(index) of \(clip)")
            #expect(abs(frame.time.seconds - reference[index].seconds) < 1e-6, "time of frame \(index) of \(clip)")
            index += 1
        }
        #expect(index == reference.count, "\(clip): decoded \(index) frames, ffmpeg \(reference.count)")
        #expect(reader.decodeErrorCount == 0)
    }

    @Test("single-threaded decode is bit-identical too")
    func singleThreaded() throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let reader = try VideoFrameReader(url: MediaFixtures.path("a.mp4"), threads: 1)
        var md5s: [String] = []
        while let frame = try reader.nextFrame() { md5s.append(frame.md5()) }
        #expect(md5s == reference.map(\.md5))
    }

    @Test("audio decodes to float samples covering the track")
    func audioDecode() throws {
        let reader = try AudioSampleReader(url: MediaFixtures.path("a.mp4"), sampleRate: 48_000, channels: 2)
        var frames = 0
        var peak: Float = 0
        var first: MediaTime?
        while let buffer = try reader.nextBuffer() {
            if first == nil { first = buffer.time }
            #expect(buffer.channels == 2 && buffer.sampleRate == 48_000)
            frames += buffer.frameCount
            peak = max(peak, buffer.samples.map(abs).max() ?? 0)
        }
        let seconds = Double(frames) / 48_000
        #expect(abs(seconds - 6.0) < 0.05, "decoded \(seconds) s of audio")
        #expect(peak > 0.05 && peak <= 1.0, "a sine tone, not silence or garbage: peak \(peak)")
        #expect(first.map { abs($0.seconds) < 0.05 } == true)
    }

    @Test("audio seeks land on the exact sample")
    func audioSeek() throws {
        let reader = try AudioSampleReader(url: MediaFixtures.path("a.mp4"), sampleRate: 48_000, channels: 2)
        try reader.seek(to: MediaTime(value: 3, timescale: 2))
        let buffer = try #require(try reader.nextBuffer())
        #expect(buffer.time == MediaTime(value: 72_000, timescale: 48_000))
    }
}
