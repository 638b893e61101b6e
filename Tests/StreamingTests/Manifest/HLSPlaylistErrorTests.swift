import MediaCore
import Streaming
import Testing

@Suite("HLS playlist errors and policy")
struct HLSPlaylistErrorTests {
    /// The error parsing `text` throws (a failed expectation when it throws none).
    private func error(_ text: String, url: String = ManifestSamples.mediaURL) -> MediaError? {
        do {
            _ = try HLSPlaylistParser.parse(text, url: url)
            Issue.record("no error for:\n\(text)")
            return nil
        } catch {
            return error
        }
    }

    private func expectMalformed(_ text: String, line: Int, mentioning word: String) {
        guard let error = error(text) else { return }
        #expect(error.kind == .malformedManifest)
        #expect(error.url == ManifestSamples.mediaURL)
        #expect(error.reason.hasPrefix("line \(line):"), "\(error.reason)")
        #expect(error.reason.contains(word), "\(error.reason)")
    }

    @Test("structure: no #EXTM3U first, no TARGETDURATION, a STREAM-INF without BANDWIDTH or URI line")
    func structure() {
        expectMalformed("#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts", line: 1, mentioning: "#EXTM3U")
        expectMalformed("", line: 1, mentioning: "#EXTM3U")
        expectMalformed("#EXTM3U\n#EXTINF:2,\na.ts", line: 3, mentioning: "TARGETDURATION")
        expectMalformed("#EXTM3U\n#EXT-X-STREAM-INF:RESOLUTION=1x1\na.m3u8", line: 2, mentioning: "BANDWIDTH")
        expectMalformed("#EXTM3U\n\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", line: 3, mentioning: "URI line")
        expectMalformed(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8", line: 2,
            mentioning: "URI line")
        expectMalformed("#EXTM3U\n#EXT-X-TARGETDURATION:2\nseg.ts", line: 3, mentioning: "#EXTINF")
        expectMalformed(
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME=\"x\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na", line: 2,
            mentioning: "GROUP-ID")
    }

    @Test("garbage numbers and attribute lists name their line")
    func garbage() {
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        expectMalformed("#EXTM3U\n#EXT-X-TARGETDURATION:six\n", line: 2, mentioning: "six")
        expectMalformed(head + "#EXTINF:abc,\na.ts", line: 3, mentioning: "abc")
        expectMalformed(head + "#EXTINF:-1,\na.ts", line: 3, mentioning: "-1")
        expectMalformed(head + "#EXTINF:nan,\na.ts", line: 3, mentioning: "nan")
        expectMalformed(head + "#EXT-X-MEDIA-SEQUENCE:1e3\n", line: 3, mentioning: "1e3")
        expectMalformed(head + "#EXTINF:1,\n#EXT-X-BYTERANGE:10@x\na.ts", line: 4, mentioning: "10@x")
        expectMalformed(head + "#EXTINF:1,\n#EXT-X-BYTERANGE:10\na.ts", line: 4, mentioning: "offset")
        expectMalformed(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n", line: 3, mentioning: "IV")
        expectMalformed(head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\n", line: 3, mentioning: "unterminated")
        expectMalformed(head + "#EXT-X-PLAYLIST-TYPE:LIVE\n", line: 3, mentioning: "LIVE")
        expectMalformed(head + "\n\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", line: 5, mentioning: "URI")
        expectMalformed(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=12k\na.m3u8", line: 2, mentioning: "BANDWIDTH")
        expectMalformed(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=wide\na.m3u8", line: 2, mentioning: "RESOLUTION")
        expectMalformed(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,FRAME-RATE=fast\na.m3u8", line: 2, mentioning: "FRAME-RATE")
    }

    @Test("a remote playlist may not name file: or concat: URIs, in any URI it has")
    func remoteSchemes() {
        let segment = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile:///etc/passwd\n"
        #expect(error(segment)?.kind == .refusedByPolicy)
        #expect(error(segment)?.reason.contains("file:///etc/passwd") == true)
        let concat = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nconcat:http://a/1.ts|file:///etc/passwd\n"
        #expect(error(concat)?.kind == .refusedByPolicy)
        let map = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"file:///etc/passwd\"\n"
        #expect(error(map)?.kind == .refusedByPolicy)
        let key = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"data:text/plain,k\"\n"
        #expect(error(key)?.kind == .refusedByPolicy)
        let variant = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nfile:///etc/passwd\n"
        #expect(error(variant, url: ManifestSamples.masterURL)?.kind == .refusedByPolicy)
        let rendition =
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"a\",URI=\"concat:x\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"
        #expect(error(rendition, url: ManifestSamples.masterURL)?.kind == .refusedByPolicy)
    }

    @Test("a relative ../ URI of a remote playlist resolves to http(s)")
    func relativeParent() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n../../etc/passwd\n"
        guard case .media(let playlist) = try HLSPlaylistParser.parse(text, url: ManifestSamples.mediaURL) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments[0].url == "https://cdn.example.com/etc/passwd")
    }

    @Test("SAMPLE-AES, SAMPLE-AES-CTR, FairPlay and Widevine are refused by name")
    func protections() {
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        let keys = [
            ("METHOD=SAMPLE-AES,URI=\"skd://k\"", "SAMPLE-AES"),
            ("METHOD=SAMPLE-AES-CTR,URI=\"k\"", "SAMPLE-AES-CTR"),
            (
                "METHOD=SAMPLE-AES,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"",
                "com.apple.streamingkeydelivery"
            ),
            (
                "METHOD=AES-128,URI=\"k\",KEYFORMAT=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"",
                "edef8ba9"
            ),
        ]
        for (attributes, name) in keys {
            let error = error(head + "#EXT-X-KEY:\(attributes)\n#EXTINF:2,\na.ts\n")
            #expect(error?.kind == .refusedByPolicy)
            #expect(error?.reason.contains(name) == true, "\(String(describing: error?.reason))")
            #expect(error?.reason.contains("line 3") == true)
        }
    }
}
