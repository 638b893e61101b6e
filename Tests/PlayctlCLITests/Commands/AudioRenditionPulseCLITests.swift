import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `play --audio pulse` on presentations whose audio is a rendition of its own, heard through the daemon on the real
/// clock: the video follows the sound's clock within 100 ms (avsync). In the realtime group of scripts/test-groups.sh.
@Suite("playctl: separate audio renditions heard on the real clock")
struct AudioRenditionPulseCLITests {
    @Test(
        "play --audio pulse: the rendition is heard (an audio output, and the video follows its clock: avsync)",
        .enabled(if: !AdaptiveStreamCLITests.serverMissing, "needs scripts/netns.sh"),
        arguments: AudioRenditionCLITests.manifests)
    func playHeard(manifest: String) async throws {
        guard PulseServer.address != nil else { throw PulseServer.Failure(message: PulseServer.missingReason) }
        let result = try await CLIProcess.run(
            ["play", LadderMedia.url(manifest), "--audio", "pulse", "--until", "2", "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let outputs = try AdaptiveStreamCLITests.events("player.audioOutput", in: result)
        #expect(
            outputs.first?["output"]?.stringValue == "pulse" && outputs.first?["error"] == .null, "\(outputs)")
        let summary = try #require(try AdaptiveStreamCLITests.events("summary", in: result).last)
        // Without audio the summary has no audio/video offset (null): there is none to measure.
        let avsync = try #require(summary["avsyncMs"]?.doubleValue, "\(summary)")
        #expect(abs(avsync) < 100, "\(summary)")
    }
}
