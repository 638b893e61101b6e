import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Keyframes decoded alone: the first frame, and seeks that land on a keyframe")
struct KeyframeAloneTests {
    @Test(
        "it is the reference's first frame, and the frames after it are the reference's rest",
        arguments: MediaFixtures.videoClips)
    func sequenceUnchanged(clip: String) throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        let first = try #require(reader.decodeFirstFrameAlone(), "\(clip) opens with a keyframe shown first")
        var md5s = [first.md5()]
        var times = [first.time.seconds]
        while let frame = try reader.nextFrame() {
            md5s.append(frame.md5())
            times.append(frame.time.seconds)
        }
        #expect(md5s == reference.map(\.md5), "\(clip)")
        #expect(zip(times, reference).allSatisfy { abs($0 - $1.seconds) < 1e-6 }, "\(clip)")
        #expect(reader.decodeErrorCount == 0)
    }

    @Test("a reader that has returned frames already is left as it is")
    func usedReader() throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let reader = try VideoFrameReader(url: MediaFixtures.path("a.mp4"))
        _ = try reader.nextFrame()
        #expect(reader.decodeFirstFrameAlone() == nil)
        var md5s: [String] = []
        while let frame = try reader.nextFrame() { md5s.append(frame.md5()) }
        #expect(md5s == reference.dropFirst().map(\.md5))
    }

    @Test("a seek after it starts over from the seek's landing")
    func seekAfter() throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let reader = try VideoFrameReader(url: MediaFixtures.path("a.mp4"))
        _ = try #require(reader.decodeFirstFrameAlone())
        let landing = try reader.seek(to: MediaTime(seconds: 2), mode: .exact)
        let index = reference.indexOnScreen(atMicroseconds: 2_000_000)
        #expect(landing.frame?.md5() == reference[index].md5)
        #expect(try reader.nextFrame()?.md5() == reference[index + 1].md5)
    }

    @Test("a stream cut in the middle of a group of pictures is decoded as before, without the shortcut")
    func streamOpeningMidGroup() throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        // offset.ts from its 100th transport packet on: its first video packet is not a keyframe.
        let whole = try Data(contentsOf: URL(fileURLWithPath: MediaFixtures.path("offset.ts")))
        let cut = directory.appendingPathComponent("cut.ts")
        try whole.dropFirst(188 * 100).write(to: cut)
        let plain = try VideoFrameReader(url: cut.path)
        var expected: [String] = []
        while let frame = try plain.nextFrame() { expected.append(frame.md5()) }
        try #require(!expected.isEmpty)

        let reader = try VideoFrameReader(url: cut.path)
        #expect(reader.decodeFirstFrameAlone() == nil)
        var md5s: [String] = []
        while let frame = try reader.nextFrame() { md5s.append(frame.md5()) }
        #expect(md5s == expected)
    }

    @Test(
        "a seek landing on a keyframe decodes only it, lands on the reference frame and goes on with the next ones",
        arguments: MediaFixtures.videoClips, [SeekMode.keyframe, .exact])
    func seeksOntoKeyframes(clip: String, mode: SeekMode) throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        let frames = try SeekTests.frameTimes(clip)
        let keyframes = frames.indices.filter { frames[$0].isKeyframe }
        try #require(keyframes.count >= 2, "\(clip) has a second keyframe")
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        // Back and forth, as a user scrubbing does; a keyframe seek aims a little past the keyframe.
        for index in (keyframes + keyframes.reversed()) {
            let target =
                mode == .keyframe ? frames[index].time + MediaTime(value: 1, timescale: 1000) : frames[index].time
            let landing = try reader.seek(to: target, mode: mode)
            #expect(landing.frame?.md5() == reference[index].md5, "\(clip) @\(target.seconds)")
            #expect(landing.statistics.framesDecoded == 1, "\(clip) @\(target.seconds): \(landing.statistics)")
            for next in (index + 1)..<min(index + 4, reference.count) {
                #expect(try reader.nextFrame()?.md5() == reference[next].md5, "\(clip): frame \(next) after \(index)")
            }
        }
    }
}
