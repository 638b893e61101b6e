import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl play --json` prints each timed metadata sample (ID3 in MPEG-TS) as an `item.timedMetadata` event when
/// the playhead reaches it: `Media/id3.ts` (samples at 0.5, 1.5, 2.5 and 3.5 s, `Media/make-id3.py`) from the file,
/// and as an HLS stream of two byte ranges of it over nginx.
@Suite("playctl play: timed metadata")
struct TimedMetadataCLITests {
    /// The `item.timedMetadata` events of an untimed play of `source`.
    static func samples(_ source: String) async throws -> [JSONValue] {
        let result = try await CLIProcess.run(["play", source, "--untimed", "--json", "--no-audio"])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        return events.filter { $0["event"]?.stringValue == "item.timedMetadata" }
    }

    static func check(_ samples: [JSONValue]) throws {
        #expect(samples.compactMap { $0["start"]?.doubleValue } == [0.5, 1.5, 2.5, 3.5])
        #expect(samples.compactMap { $0["time"]?.doubleValue } == [0.5, 1.5, 2.5, 3.5], "each at its own time")
        let ids = samples.map { ($0["frames"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }
        #expect(ids == [["TXXX"], ["TIT2", "WXXX"], ["PRIV"], ["TXXX", "COMM", "GEOB"]])
        let first = try #require(samples.first?["frames"]?.arrayValue?.first)
        #expect(first["description"]?.stringValue == "title" && first["text"]?.stringValue == "Chapter 1")
        let priv = try #require(samples[2]["frames"]?.arrayValue?.first)
        #expect(priv["description"]?.stringValue == "com.apple.streaming.transportStreamTimestamp")
        // PRIV's 8 bytes: a 33-bit 90 kHz timestamp, the sample's own PTS (356280, 0x56FB8).
        #expect(
            priv["data"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map(Array.init) == [
                0, 0, 0, 0, 0, 5, 0x6F, 0xB8,
            ])
        let last = try #require(samples.last?["frames"]?.arrayValue?.first)
        #expect(last["text"]?.stringValue == "Größe 日本", "UTF-16 text")
    }

    @Test("Media/id3.ts: its four samples, each at its time, with its frames")
    func file() async throws {
        try Self.check(try await Self.samples(TrackClips.path("id3.ts")))
    }

    @Test("the same samples from an HLS stream of it over HTTP (read through the stream's segments)")
    func hls() async throws {
        try Self.check(try await Self.samples(TestHTTPServer.url("id3-hls/index.m3u8")))
    }
}
