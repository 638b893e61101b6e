import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `probe` and `play` on presentations whose audio is a rendition of its own (the DASH ladder's audio AdaptationSet,
/// `hls-audio/`'s `#EXT-X-MEDIA:TYPE=AUDIO` with a URI): the audio track is listed after the variant's and heard.
@Suite("playctl on separate audio renditions")
struct AudioRenditionCLITests {
    static let manifests = ["dash/manifest.mpd", "hls-audio/master.m3u8"]

    @Test(
        "probe --json lists the rendition's audio track after the variant's video",
        .enabled(if: !AdaptiveStreamCLITests.serverMissing, "needs scripts/netns.sh"), arguments: manifests)
    func probeListsAudio(manifest: String) async throws {
        let result = try await CLIProcess.run(["probe", LadderMedia.url(manifest), "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONValue(parsing: result.standardOutput)
        let tracks = try #require(report["tracks"]?.arrayValue)
        #expect(tracks.map { $0["kind"]?.stringValue } == ["video", "audio"], "\(tracks)")
        #expect(tracks.map { $0["index"]?.intValue } == [0, 1])
        let audio = try #require(tracks.last)
        #expect(audio["codec"]?.stringValue == "aac")
        #expect(audio["sampleRate"]?.intValue == 48_000 && audio["channels"]?.intValue == 2, "\(audio)")
        let renditions = try #require(report["renditions"]?.arrayValue)
        #expect(renditions.contains { $0["type"]?.stringValue == "audio" }, "\(renditions)")
    }
}
