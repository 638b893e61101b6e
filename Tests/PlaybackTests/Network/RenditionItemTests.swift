import Foundation
import Loading
import Playback
import PlaybackTesting
import Streaming
import Testing

/// A `PlayerItem` made from progressive renditions: the rendition chosen when it is made, from the estimate and the
/// limits, and played (over the test server).
@Suite("Player items from progressive renditions")
struct RenditionItemTests {
    static func renditions(_ marker: String = "") -> [ProgressiveRendition] {
        [
            ProgressiveRendition(
                url: TestHTTPServer.url("renditions/a-720p.mp4\(marker)", over: .mbit20), bitrate: 1_680_000,
                width: 1280, height: 720),
            ProgressiveRendition(
                url: TestHTTPServer.url("renditions/a-360p.mp4\(marker)", over: .mbit20), bitrate: 630_000,
                width: 640, height: 360),
        ]
    }

    @Test("the estimate picks the rendition; the limits cap it and stay the item's; no renditions, no item")
    func choice() throws {
        let high = try #require(PlayerItem(renditions: Self.renditions(), bandwidthEstimate: .known(8_000_000)))
        #expect(high.url.contains("a-720p.mp4") && high.renditionChoice?.index == 0)
        #expect(high.renditionChoice?.reason == .initial && high.renditionChoice?.estimate == 8_000_000)
        let low = try #require(PlayerItem(renditions: Self.renditions(), bandwidthEstimate: .known(1_600_000)))
        #expect(low.url.contains("a-360p.mp4") && low.renditionChoice?.index == 1)
        let unmeasured = try #require(PlayerItem(renditions: Self.renditions(), bandwidthEstimate: .init()))
        #expect(unmeasured.url.contains("a-360p.mp4") && unmeasured.renditionChoice?.estimateSource == .defaultEstimate)
        let capped = try #require(
            PlayerItem(
                renditions: Self.renditions(), limits: ABRLimits(preferredPeakBitRate: 1_000_000),
                bandwidthEstimate: .known(8_000_000)))
        #expect(capped.url.contains("a-360p.mp4") && capped.preferredPeakBitRate == 1_000_000)
        #expect(PlayerItem(renditions: []) == nil)
        #expect(PlayerItem(url: "Media/a.mp4").renditionChoice == nil)
    }

    @Test(
        "it plays the chosen file, and only that one is fetched",
        .enabled(
            if: TestHTTPServer.skipReason == nil && TestHTTPServer.accessLog != nil, "needs scripts/netns.sh"))
    func plays() async throws {
        let marker = "?rendition-item-\(UInt32.random(in: 0...UInt32.max))"
        let item = try #require(
            PlayerItem(
                renditions: Self.renditions(marker), bandwidthEstimate: .known(8_000_000),
                loading: RemoteLoading(cache: ByteCache())))
        let (md5s, trace, player) = try await RemotePlaybackTests.playToEnd(item, audio: false)
        defer { player.invalidate() }
        #expect(item.status == .readyToPlay && md5s.count >= 100, "\(trace)")
        #expect(item.presentationSize?.width == 1280)
        let responses = await TestHTTPServer.responses(containing: marker, atLeast: 1)
        #expect(!responses.isEmpty && responses.allSatisfy { $0.request.contains("a-720p.mp4") }, "\(responses)")
    }
}
