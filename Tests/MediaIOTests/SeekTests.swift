import MediaIO
import PlaybackTesting
import Testing

@Suite("Exact and keyframe seeks")
struct SeekTests {
    /// Exact frame times and keyframe flags from a full decode (whose md5s and times the decode tests hold to the
    /// references).
    static func frameTimes(_ clip: String) throws -> [(time: MediaTime, isKeyframe: Bool)] {
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        var frames: [(MediaTime, Bool)] = []
        while let frame = try reader.nextFrame() { frames.append((frame.time, frame.isKeyframe)) }
        return frames
    }

    static func keyframeTimes(_ clip: String) throws -> [Double] {
        try frameTimes(clip).filter(\.isKeyframe).map(\.time.seconds)
    }

    /// At least 20 targets per clip: before the first frame, exactly on frames, between frames, just before and on
    /// every keyframe, the last frame and past the end.
    static func targets(_ frames: [(time: MediaTime, isKeyframe: Bool)]) -> [MediaTime] {
        let tick = MediaTime(value: 1, timescale: 1_000_000)
        let interval = frames.count > 1 ? frames[1].time - frames[0].time : MediaTime(value: 1, timescale: 25)
        let half = MediaTime(value: interval.value, timescale: interval.timescale * 2)
        let last = frames.last!.time
        var targets: [MediaTime] = [
            MediaTime(seconds: -1), .zero, frames[0].time, last, last + half, last + MediaTime(seconds: 5),
        ]
        for key in frames where key.isKeyframe {
            targets += [key.time - tick, key.time - half, key.time, key.time + tick]
        }
        let step = max(frames.count / 14, 1)
        for i in stride(from: 1, to: frames.count, by: step) {
            targets += [frames[i].time, frames[i].time + half, frames[i].time - tick]
        }
        return targets
    }

    @Test(
        "an exact seek returns the reference frame on screen at the target (also as a single-frame seek)",
        arguments: MediaFixtures.videoClips, [false, true])
    func exactSeeks(clip: String, singleFrame: Bool) throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        let frames = try Self.frameTimes(clip)
        try #require(frames.count == reference.count)
        let targets = Self.targets(frames)
        #expect(targets.count >= 20)
        // One reader for all seeks, in an order that jumps back and forth, as a user scrubbing does.
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        for target in targets.shuffledDeterministically() {
            let landing =
                singleFrame ? try reader.frame(at: target, mode: .exact) : try reader.seek(to: target, mode: .exact)
            let index = frames.lastIndex { $0.time <= target } ?? 0
            let frame = try #require(landing.frame, "\(clip) @\(target)")
            #expect(
                frame.md5() == reference[index].md5,
                "\(clip) @\(target.seconds): landed at \(frame.time.seconds), expected \(reference[index].seconds)")
            #expect(frame.time == frames[index].time)
        }
    }

    @Test("after an exact seek, playback continues with the following frames")
    func continuesAfterSeek() throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let reader = try VideoFrameReader(url: MediaFixtures.path("a.mp4"))
        let landing = try reader.seek(to: MediaTime(seconds: 2.5), mode: .exact)
        let start = reference.indexOnScreen(atMicroseconds: 2_500_000)
        #expect(landing.frame?.md5() == reference[start].md5)
        for index in (start + 1)..<reference.count {
            let frame = try #require(try reader.nextFrame())
            #expect(frame.md5() == reference[index].md5, "frame \(index) after the seek")
        }
        #expect(try reader.nextFrame() == nil)
    }

    @Test("pre-roll skips the frames no other frame references")
    func prerollSkips() throws {
        let reader = try VideoFrameReader(url: MediaFixtures.path("a.mp4"))
        // a.mp4 has keyframes at 0 s and 4 s; 3.9 s is 117 frames into the first GOP.
        let landing = try reader.seek(to: MediaTime(seconds: 3.9), mode: .exact)
        let stats = landing.statistics
        #expect(landing.landed == MediaTime(value: 117, timescale: 30))
        #expect(stats.framesSkipped > 20, "\(stats)")
        #expect(stats.framesDecoded + stats.framesSkipped >= 118, "\(stats)")
        #expect(stats.framesDecoded < 118, "\(stats)")
    }

    @Test("a keyframe seek lands on the sync frame at or before the target", arguments: MediaFixtures.videoClips)
    func keyframeSeeks(clip: String) throws {
        let keyframes = try Self.keyframeTimes(clip)
        let reader = try VideoFrameReader(url: MediaFixtures.path(clip))
        for target in [0.0, 0.3, 1.0, 1.9, 3.5, 4.0, 4.5, 10] {
            let landing = try reader.seek(to: MediaTime(seconds: target), mode: .keyframe)
            let frame = try #require(landing.frame)
            let expected = keyframes.last { $0 <= target + 1e-9 } ?? keyframes[0]
            #expect(frame.isKeyframe, "\(clip) @\(target)")
            #expect(
                abs(frame.time.seconds - expected) < 1e-6, "\(clip) @\(target): \(frame.time.seconds) vs \(expected)")
        }
    }
}

extension Array {
    /// A fixed permutation (a seeded shuffle), so failures reproduce.
    func shuffledDeterministically(seed: UInt64 = 0x5EED) -> [Element] {
        var state = seed
        var copy = self
        for i in stride(from: copy.count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            copy.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        return copy
    }
}
