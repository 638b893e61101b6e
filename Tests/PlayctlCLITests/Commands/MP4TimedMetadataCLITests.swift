import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl play --json` prints MP4 timed metadata as `item.timedMetadata` events: the `emsg` boxes of
/// `Media/tracks/emsg.mp4` (with their `emsg`) and the `mebx` track of `Media/tracks/mebx.mp4` (with its `items`),
/// both made by `Media/make-mp4meta.py`; and emsg.mp4 as an fMP4 HLS stream (`scripts/make-http-media.sh`).
@Suite("playctl play: MP4 timed metadata")
struct MP4TimedMetadataCLITests {
    @Test("emsg.mp4: each event at its time, ID3 frames, the event's scheme, value, id and message")
    func eventMessages() async throws {
        try Self.checkEvents(try await TimedMetadataCLITests.samples(TrackClips.path("emsg.mp4")))
    }

    @Test("the same events from an fMP4 HLS stream of it over HTTP (read through the stream's segments)")
    func hls() async throws {
        try Self.checkEvents(try await TimedMetadataCLITests.samples(TestHTTPServer.url("emsg-hls/index.m3u8")))
    }

    static func checkEvents(_ samples: [JSONValue]) throws {
        #expect(samples.compactMap { $0["start"]?.doubleValue } == [0.5, 1.5, 2.5, 3.5])
        #expect(samples.compactMap { $0["time"]?.doubleValue } == [0.5, 1.5, 2.5, 3.5])
        #expect(samples.map { $0["duration"]?.doubleValue } == [0, nil, 2, 0.25])
        let events = samples.map { $0["emsg"] }
        #expect(
            events.map { $0?["scheme"]?.stringValue } == [
                "https://aomedia.org/emsg/ID3", "https://aomedia.org/emsg/ID3", "urn:scte:scte35:2013:bin",
                "urn:example:chapter",
            ])
        #expect(events.map { $0?["id"]?.intValue } == [1, 2, 7, 9])
        #expect(events.map { $0?["version"]?.intValue } == [1, 0, 1, 0])
        #expect(events[3]?["value"]?.stringValue == "4")
        #expect(
            events[3]?["message"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Data("chapter four".utf8))
        let first = try #require(samples.first?["frames"]?.arrayValue?.first)
        #expect(first["id"]?.stringValue == "TXXX" && first["text"]?.stringValue == "Chapter 1")
    }

    @Test("mebx.mp4: each sample's items with their identifiers and typed values")
    func boxedMetadata() async throws {
        let samples = try await TimedMetadataCLITests.samples(TrackClips.path("mebx.mp4"))
        #expect(samples.compactMap { $0["start"]?.doubleValue } == [0, 1, 3])
        let items = samples.map { $0["items"]?.arrayValue ?? [] }
        #expect(
            items.map { $0.compactMap { $0["identifier"]?.stringValue } } == [
                ["mdta/com.apple.quicktime.location.ISO6709"], ["mdta/com.example.score", "mdta/com.example.speed"],
                ["mdta/com.apple.quicktime.location.ISO6709", "mdta/com.example.blob"],
            ])
        #expect(items[0].first?["value"]?.stringValue == "+48.8584+002.2945/")
        #expect(items[1].first?["value"]?.intValue == 42 && items[1].last?["value"]?.doubleValue == 1.5)
        #expect(items[1].map { $0["dataType"]?.intValue } == [21, 23])
        #expect(items[2].last?["value"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Data([0, 1, 2, 0xFF]))
    }
}
