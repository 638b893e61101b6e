import Foundation
import MediaCore
import Streaming
import Testing

@Suite("DASH manifest errors and policy")
struct DASHManifestErrorTests {
    private func error(_ text: String, url: String = ManifestSamples.mpdURL) -> MediaError? {
        do {
            _ = try DASHManifestParser.parse(text, url: url)
            Issue.record("no error for:\n\(text)")
            return nil
        } catch {
            return error
        }
    }

    private let template = "<SegmentTemplate media=\"$Number$.m4s\" initialization=\"i.mp4\" duration=\"2\"/>"

    @Test("a BaseURL of file:/// or concat: in a remote MPD is refused, at any level")
    func schemes() {
        let root = DASHManifestParserTests.mpd(template, base: "<BaseURL>file:///etc/</BaseURL>")
        #expect(error(root)?.kind == .refusedByPolicy)
        #expect(error(root)?.reason.contains("file:///etc/") == true)
        let representation = DASHManifestParserTests.mpd("<BaseURL>concat:a|b</BaseURL>" + template)
        #expect(error(representation)?.kind == .refusedByPolicy)
        let media = DASHManifestParserTests.mpd(
            "<SegmentTemplate media=\"file:///etc/$Number$\" initialization=\"i.mp4\" duration=\"2\"/>")
        #expect(error(media)?.kind == .refusedByPolicy)
    }

    @Test("live DASH without an availabilityStartTime is malformed (DASHLiveManifestTests: what live plays)")
    func dynamic() {
        let text = DASHManifestParserTests.mpd(template).replacingOccurrences(of: "\"static\"", with: "\"dynamic\"")
        #expect(error(text)?.kind == .malformedManifest)
        #expect(error(text)?.reason == "a dynamic MPD without MPD@availabilityStartTime")
    }

    @Test("a DTD is refused and its entities never expanded")
    func doctype() {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE MPD [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c SYSTEM "file:///etc/passwd">]>
            <MPD type="static" mediaPresentationDuration="PT2S"><BaseURL>&c;&b;</BaseURL></MPD>
            """
        #expect(error(text)?.kind == .refusedByPolicy)
    }

    @Test("malformed MPDs: not XML, not an MPD, no Period, bad numbers, unknown identifiers, missing pieces")
    func malformed() {
        let cases: [(String, String)] = [
            ("not xml at all", "XML"),
            ("<MPD type=\"static\"><Period>", "XML"),
            ("<html/>", "<html>"),
            ("<MPD type=\"static\"/>", "Period"),
            ("<MPD type=\"other\"><Period/></MPD>", "other"),
            (
                DASHManifestParserTests.mpd(template).replacingOccurrences(of: "bandwidth=\"1000\"", with: ""),
                "bandwidth"
            ),
            (DASHManifestParserTests.mpd(""), "SegmentTemplate"),
            (DASHManifestParserTests.mpd(template.replacingOccurrences(of: "$Number$", with: "$Frame$")), "$Frame$"),
            (
                DASHManifestParserTests.mpd(template.replacingOccurrences(of: "$Number$", with: "$Number")),
                "unterminated"
            ),
            (DASHManifestParserTests.mpd(template.replacingOccurrences(of: "\"2\"", with: "\"-2\"")), "-2"),
            (DASHManifestParserTests.mpd(template.replacingOccurrences(of: "\"2\"", with: "\"0\"")), "positive"),
            (DASHManifestParserTests.mpd(template, duration: "soon"), "soon"),
            (DASHManifestParserTests.mpd("<SegmentBase/>"), "indexRange"),
            (DASHManifestParserTests.mpd("<SegmentBase indexRange=\"9-3\"/>"), "before"),
            (DASHManifestParserTests.mpd(template.replacingOccurrences(of: "i.mp4", with: "$Number$.mp4")), "Number"),
        ]
        for (text, word) in cases {
            guard let error = error(text) else { continue }
            #expect(error.kind == .malformedManifest, "\(word)")
            #expect(error.url == ManifestSamples.mpdURL)
            #expect(error.reason.contains(word), "\(error.reason)")
        }
    }

    @Test("a period of a billion one-tick segments is refused, not allocated")
    func segmentBomb() {
        let text = DASHManifestParserTests.mpd(
            "<SegmentTemplate media=\"$Number$\" initialization=\"i\" timescale=\"1000\" duration=\"1\"/>",
            duration: "PT300H")
        #expect(error(text)?.kind == .malformedManifest)
        let timeline = DASHManifestParserTests.mpd(
            "<SegmentTemplate media=\"$Time$\" initialization=\"i\"><SegmentTimeline><S d=\"1\" r=\"999999999\"/>"
                + "</SegmentTimeline></SegmentTemplate>")
        #expect(error(timeline)?.kind == .malformedManifest)
    }

    @Test("a template implying more than 100,000 segments is refused; one at the bound parses (in bounded time)")
    func segmentBound() throws {
        let limit = DASHManifestParser.maximumSegments
        // Segments of 1 s: the presentation's duration in seconds is the count.
        let at = DASHManifestParserTests.mpd(
            "<SegmentTemplate media=\"$Number$.m4s\" initialization=\"i.mp4\" duration=\"1\"/>",
            duration: "PT\(limit)S")
        let started = ContinuousClock.now
        let variant = try DASHManifestParserTests.onlyVariant(at)
        print("DASH bound: \(limit) segments parsed in \(ContinuousClock.now - started)")
        guard case .segments(let playlist) = variant.media else {
            Issue.record("no segment list: \(variant.media)")
            return
        }
        #expect(playlist.segments.count == limit)
        let over = DASHManifestParserTests.mpd(
            "<SegmentTemplate media=\"$Number$.m4s\" initialization=\"i.mp4\" duration=\"1\"/>",
            duration: "PT\(limit + 1)S")
        #expect(error(over)?.kind == .malformedManifest)
        #expect(error(over)?.reason.contains("more than \(limit) segments") == true)
    }
}
