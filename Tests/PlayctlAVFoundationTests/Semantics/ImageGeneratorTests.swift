import AVFoundation
import Locking
import PlaybackTesting
import Posters
import Testing

/// `AVAssetImageGenerator` as Apple documents it: tolerances choose between a keyframe and the exact frame,
/// `maximumSize` bounds the picture with its aspect ratio kept, the asynchronous requests are answered once each,
/// in order, and a cancel ends those not made.
@Suite("AVAssetImageGenerator")
struct ImageGeneratorTests {
    static func asset(_ clip: String) -> AVURLAsset {
        AVURLAsset(url: URL(fileURLWithPath: MediaFixtures.path(clip)))
    }

    /// The RGBA bytes of `image`.
    static func pixels(_ image: CGImage) -> [UInt8] { Array(image.dataProvider?.data ?? Data()) }

    @Test("with zero tolerances the picture is the frame on screen at the time, at the video's size")
    func exact() async throws {
        let generator = AVAssetImageGenerator(asset: Self.asset("a.mp4"))
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (image, actual) = try await generator.image(at: CMTime(seconds: 2.5, preferredTimescale: 600))
        #expect(image.width == 640 && image.height == 360 && image.bytesPerRow == 640 * 4)
        #expect(image.bitsPerPixel == 32 && image.bitsPerComponent == 8)
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let onScreen = reference[reference.indexOnScreen(atMicroseconds: 2_500_000)]
        #expect(abs(actual.seconds - onScreen.seconds) < 0.001, "\(actual.seconds) against \(onScreen.seconds)")
        // The same picture as playctl's exact thumbnail of that time (whose YUV tiles equal ffmpeg's scale).
        let tile = try await ThumbnailGenerator(
            url: MediaFixtures.path("a.mp4"), options: ThumbnailOptions(width: 640, height: 360, exact: true)
        ).thumbnail(at: 2.5)
        #expect(Self.pixels(image) == tile.rgba.bytes)
    }

    @Test("with the default (infinite) tolerances the picture is the nearest keyframe; a window without one is exact")
    func tolerances() async throws {
        let generator = AVAssetImageGenerator(asset: Self.asset("a.mp4"))
        let (_, keyframe) = try await generator.image(at: CMTime(seconds: 3.2, preferredTimescale: 600))
        #expect(keyframe.seconds == 4, "a.mp4's keyframes are at 0 s and 4 s")
        generator.requestedTimeToleranceBefore = CMTime(seconds: 0.5, preferredTimescale: 600)
        generator.requestedTimeToleranceAfter = CMTime(seconds: 0.5, preferredTimescale: 600)
        let (_, near) = try await generator.image(at: CMTime(seconds: 3.2, preferredTimescale: 600))
        #expect(abs(near.seconds - 3.2) < 0.05, "no keyframe within 0.5 s of 3.2 s: the frame on screen, \(near)")
        let (_, within) = try await generator.image(at: CMTime(seconds: 3.7, preferredTimescale: 600))
        #expect(within.seconds == 4, "the keyframe at 4 s lies within 0.5 s of 3.7 s")
    }

    @Test("maximumSize bounds the picture, its aspect ratio kept; the preferred transform turns it")
    func sizes() async throws {
        let generator = AVAssetImageGenerator(asset: Self.asset("a.mp4"))
        generator.maximumSize = CGSize(width: 160, height: 160)
        var (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 160 && image.height == 90)
        generator.maximumSize = CGSize(width: 0, height: 72)
        (image, _) = try await generator.image(at: .zero)
        #expect(image.width == 128 && image.height == 72)

        let rotated = AVAssetImageGenerator(asset: Self.asset("rotated.mp4"))
        (image, _) = try await rotated.image(at: .zero)
        #expect(image.width == 320 && image.height == 180, "the coded picture by default")
        let coded = Self.pixels(image)
        rotated.appliesPreferredTrackTransform = true
        (image, _) = try await rotated.image(at: .zero)
        #expect(image.width == 180 && image.height == 320, "turned a quarter, as the display matrix says")
        // Turned clockwise: the turned picture's top-right pixel is the coded picture's top-left one.
        let turned = Self.pixels(image)
        #expect(Array(turned[(179 * 4)..<(180 * 4)]) == Array(coded[0..<4]))
        rotated.maximumSize = CGSize(width: 90, height: 90)
        (image, _) = try await rotated.image(at: .zero)
        #expect(image.width == 50 && image.height == 90, "the turned picture fits the bound")
    }

    @Test("asynchronous requests: one answer each, in order; after a cancel the rest end as cancelled")
    func asynchronous() async throws {
        let generator = AVAssetImageGenerator(asset: Self.asset("a.mp4"))
        generator.maximumSize = CGSize(width: 64, height: 64)
        let times = [0.0, 1, 2, 3, 4, 5].map { NSValue(time: CMTime(seconds: $0, preferredTimescale: 600)) }
        let answers = Locked<[(Double, AVAssetImageGenerator.Result)]>([])
        try await withDeadline("an answer to each of the \(times.count) requests") {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, _, result, error in
                    let count = answers.withLock {
                        $0.append((requested.seconds, result))
                        return $0.count
                    }
                    #expect((result == .succeeded) == (image != nil) && (result == .failed) == (error != nil))
                    if count == 2 { generator.cancelAllCGImageGeneration() }
                    if count == times.count { done.resume() }
                }
            }
        }
        let got = answers.withLock { $0 }
        #expect(got.map(\.0) == [0, 1, 2, 3, 4, 5])
        #expect(got.prefix(2).allSatisfy { $0.1 == .succeeded })
        #expect(got.dropFirst(2).allSatisfy { $0.1 == .cancelled }, "\(got)")

        let missing = AVAssetImageGenerator(asset: AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/clip.mp4")))
        await #expect(throws: (any Error).self) { try await missing.image(at: .zero) }
    }
}

/// `AVPlayerItem.audioTimePitchAlgorithm`: `.timeDomain` by default (as on iOS), each value reaching the engine's
/// item (whose effect `TimePitchTests` measures).
@Suite("AVPlayerItem.audioTimePitchAlgorithm")
struct TimePitchAlgorithmTests {
    @Test("the default and each algorithm, as the engine's item has them")
    func algorithms() {
        let item = AVPlayerItem(url: URL(fileURLWithPath: MediaFixtures.path("a.mp4")))
        #expect(item.audioTimePitchAlgorithm == .timeDomain)
        for (algorithm, keepsPitch) in [
            (AVAudioTimePitchAlgorithm.varispeed, false), (.spectral, true), (.timeDomain, true),
            (.lowQualityZeroLatency, true),
        ] {
            item.audioTimePitchAlgorithm = algorithm
            #expect(item.playctlItem.audioTimePitchAlgorithm.keepsPitch == keepsPitch, "\(algorithm.rawValue)")
        }
        #expect(AVAudioTimePitchAlgorithm.varispeed.rawValue == "Varispeed")
    }
}
