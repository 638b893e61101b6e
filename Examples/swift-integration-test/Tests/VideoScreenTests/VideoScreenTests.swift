import AVFoundation
import Foundation
import Testing
import VideoScreen

/// The iOS-style model builds and runs on Linux with its imports unchanged.
@Suite struct VideoScreenTests {
    static let clip = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Media/a.mp4").standardized

    @Test func seeksExactlyAndKnowsItsIntro() async {
        let model = VideoScreenModel(url: Self.clip)
        let deadline = ContinuousClock.now + .seconds(30)
        while model.player.currentItem?.status != .readyToPlay {
            #expect(ContinuousClock.now < deadline, "the item was not ready within 30 s")
            if ContinuousClock.now >= deadline { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let landed = await withCheckedContinuation { continuation in
            model.jump(to: 3) { finished in continuation.resume(returning: finished) }
        }
        #expect(landed)
        #expect(model.log.contains("status ready"), "\(model.log)")
        #expect(model.player.currentTime() == CMTime(value: 3, timescale: 1))
        #expect(model.isInIntro(CMTime(seconds: 1, preferredTimescale: 600), seconds: 2))
        #expect(!model.isInIntro(CMTime(seconds: 2, preferredTimescale: 600), seconds: 2))
    }
}
