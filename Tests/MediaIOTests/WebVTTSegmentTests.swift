import Foundation
import MediaIO
import Testing

@Suite("WebVTT segments of HLS subtitle renditions: cues by FFmpeg, X-TIMESTAMP-MAP read and applied")
struct WebVTTSegmentTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let segment = """
        WEBVTT
        X-TIMESTAMP-MAP=LOCAL:00:01:00.000,MPEGTS:900000

        00:01:00.500 --> 00:01:01.250
        <i>Hello</i>, world.

        01:02.000 --> 01:03.000
        Two lines
        of text.
        """

    @Test("cues from the file's zero, markup and text as libavcodec decodes WebVTT; the map in either order")
    func decodes() throws {
        let decoded = try WebVTTSegment.decode(Self.bytes(Self.segment), url: "https://example.com/seg0.vtt")
        #expect(decoded.cues.map(\.start) == [MediaTime(value: 60_500, timescale: 1000), MediaTime(seconds: 62)])
        #expect(decoded.cues.map(\.end) == [MediaTime(value: 61_250, timescale: 1000), MediaTime(seconds: 63)])
        #expect(decoded.cues.map(\.text) == ["Hello, world.", "Two lines\nof text."])
        #expect(decoded.cues.first?.markup == #"{\i1}Hello{\i0}, world."#)
        #expect(decoded.timestampMap == WebVTTTimestampMap(mpegts: 900_000, local: MediaTime(seconds: 60)))
    }

    @Test("a header without a map, a byte order mark, no cues at all")
    func plainFiles() throws {
        let empty = try WebVTTSegment.decode(Self.bytes("\u{FEFF}WEBVTT - empty\n\n"), url: "e.vtt")
        #expect(empty.cues.isEmpty && empty.timestampMap == nil)
        let plain = try WebVTTSegment.decode(Self.bytes("WEBVTT\n\n00:00.100 --> 00:00.200\nx\n"), url: "p.vtt")
        #expect(plain.cues.map(\.start) == [MediaTime(value: 100, timescale: 1000)] && plain.timestampMap == nil)
    }

    @Test("a malformed cue timing line: the cues before it are read, the damage says how many were not")
    func malformedCue() throws {
        let text =
            "WEBVTT\n\n00:00.500 --> 00:01.000\nok one\n\ngarbage --> nonsense\nbad\n\n00:02.000 --> 00:03.000\nok\n"
        let decoded = try WebVTTSegment.decode(Self.bytes(text), url: "d.vtt")
        #expect(decoded.cues.map(\.text) == ["ok one"])
        #expect(decoded.damage?.url == "d.vtt" && decoded.damage?.description.contains("2 of 3 cues") == true)
        #expect(try WebVTTSegment.decode(Self.bytes(Self.segment), url: "s.vtt").damage == nil)
    }

    @Test("not WebVTT, or a map that does not parse: errors naming the URL and why")
    func badInput() {
        for text in ["NOT A WEBVTT FILE\n", "WEBVTTX\n", "", "<html>404</html>"] {
            do {
                _ = try WebVTTSegment.decode(Self.bytes(text), url: "https://example.com/bad.vtt")
                Issue.record("'\(text)' decoded")
            } catch {
                #expect(error.kind == .notMedia && error.url == "https://example.com/bad.vtt", "\(error)")
                #expect(error.description.contains("WEBVTT"), "\(error)")
            }
        }
        for map in [
            "MPEGTS:abc,LOCAL:00:00.000", "LOCAL:00:00.000", "MPEGTS:1,LOCAL:0:00.000", "MPEGTS:1,LOCAL:00:60.000",
        ] {
            do {
                _ = try WebVTTSegment.decode(Self.bytes("WEBVTT\nX-TIMESTAMP-MAP=\(map)\n\n"), url: "m.vtt")
                Issue.record("map '\(map)' accepted")
            } catch {
                #expect(error.kind == .decodeFailed && error.description.contains("X-TIMESTAMP-MAP"), "\(error)")
            }
        }
    }

    @Test("the map against the media's start: exact in 90 kHz, and across the 33-bit wrap")
    func mapping() {
        let map = WebVTTTimestampMap(mpegts: 130_080, local: MediaTime(seconds: 60))
        let start = MediaTime(value: 130_080, timescale: 90_000)
        #expect(
            map.mediaTime(ofLocal: MediaTime(value: 60_500, timescale: 1000), presentationStart: start)
                == MediaTime(value: 1, timescale: 2))
        // The video's timestamps wrapped past 2^33 ticks; the subtitles' map was written before the wrap (or after).
        let period: Int64 = 1 << 33
        let late = MediaTime(value: period - 90_000, timescale: 90_000)
        let wrapped = WebVTTTimestampMap(mpegts: 90_000, local: .zero)
        #expect(wrapped.mediaTime(ofLocal: .zero, presentationStart: late) == MediaTime(seconds: 2))
        let early = WebVTTTimestampMap(mpegts: period - 90_000, local: .zero)
        #expect(early.mediaTime(ofLocal: .zero, presentationStart: MediaTime(seconds: 1)) == MediaTime(seconds: -2))
    }
}
