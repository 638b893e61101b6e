import AVFoundation
import Foundation
import Playback
import PlaybackTesting
import Streaming
import Testing

@testable import PlayctlAVFoundation

/// `AVMetricPlayerItemVariantSwitchStartEvent` and `AVMetricPlayerItemVariantSwitchEvent`, as iOS code reads them.
@Suite("AVMetrics: variant switches", .serialized, .timeLimit(.minutes(2)))
struct VariantSwitchMetricsBridgeTests {
    @Test(
        "an HLS ladder's first choice under a peak bit rate: a start from no variant and its successful end, 360p",
        .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
    func firstChoice() async throws {
        let url = try #require(URL(string: LadderMedia.url("hls-ts/master.m3u8")))
        let (start, end) = try await PlayctlAVFoundation.withConfiguration(
            .init(clock: .untimed, decodesAudio: false)
        ) { () async throws -> (AVMetricPlayerItemVariantSwitchStartEvent?, AVMetricPlayerItemVariantSwitchEvent?) in
            let item = AVPlayerItem(url: url)
            item.preferredPeakBitRate = 1_200_000
            let starts = item.metrics(forType: AVMetricPlayerItemVariantSwitchStartEvent.self)
            let ends = item.metrics(forType: AVMetricPlayerItemVariantSwitchEvent.self)
            let player = AVPlayer(playerItem: item)
            defer { player.playctlPlayer.invalidate() }
            player.play()
            return (
                try await firstElement(of: starts, "the first variant switch start metric"),
                try await firstElement(of: ends, "the first variant switch metric")
            )
        }
        let started = try #require(start)
        let ended = try #require(end)
        #expect(started.fromVariant == nil)
        let rung = LadderMedia.rungs[0]
        #expect(started.toVariant.videoAttributes?.presentationSize == CGSize(width: rung.width, height: rung.height))
        let peak = try #require(started.toVariant.peakBitRate)
        #expect(peak > Double(rung.videoBitsPerSecond) && peak <= 1_200_000, "the lowest rung's BANDWIDTH: \(peak)")
        #expect(ended.fromVariant == nil && ended.toVariant == started.toVariant && ended.didSucceed)
        #expect(ended.sessionID == started.sessionID && ended.date >= started.date)
        #expect(ended.playctlEvent is VariantSwitchEvent && started.playctlEvent is VariantSwitchStartEvent)
        #expect(started.description.hasPrefix("variantSwitchStart - -> "))
    }

    @Test("the bridge carries the engine event's variants, ranges and outcome")
    func mapping() throws {
        let variant = Variant(
            id: "2", bandwidth: 3_000_000, averageBandwidth: 2_500_000,
            resolution: Resolution(width: 1280, height: 720),
            codecs: "avc1.64001f,mp4a.40.2", frameRate: 30, media: .playlist(url: "https://example.com/v2.m3u8"))
        let change = VariantSwitch(
            from: nil, to: variant, segmentIndex: 4, seconds: 8, reason: "bandwidthUp", estimate: 4e6)
        let context = MetricContext(
            date: Date(timeIntervalSinceReferenceDate: 5), mediaTime: MediaTime(seconds: 7.5), sessionID: "s",
            hostTime: 5, item: "master.m3u8")
        let ranges = [TimeRange(start: .zero, duration: MediaTime(seconds: 10))]
        let event = VariantSwitchEvent(context: context, change: change, loadedTimeRanges: ranges, didSucceed: false)
        let mapped = try #require(MetricMapper().map(event) as? AVMetricPlayerItemVariantSwitchEvent)
        #expect(mapped.fromVariant == nil && mapped.didSucceed == false)
        #expect(mapped.toVariant.peakBitRate == 3_000_000 && mapped.toVariant.averageBitRate == 2_500_000)
        #expect(mapped.toVariant.videoAttributes?.presentationSize == CGSize(width: 1280, height: 720))
        #expect(mapped.toVariant.videoAttributes?.nominalFrameRate == 30)
        #expect(mapped.toVariant.codecs == "avc1.64001f,mp4a.40.2")
        #expect(
            mapped.loadedTimeRanges == [CMTimeRange(start: .zero, end: CMTime(seconds: 10, preferredTimescale: 600))])
        #expect(mapped.mediaTime == CMTime(MediaTime(seconds: 7.5)) && mapped.sessionID == "s")
        let start = VariantSwitchStartEvent(context: context, change: change, loadedTimeRanges: [])
        let mappedStart = try #require(MetricMapper().map(start) as? AVMetricPlayerItemVariantSwitchStartEvent)
        #expect(mappedStart.toVariant == mapped.toVariant && mappedStart.loadedTimeRanges.isEmpty)
    }
}
