import MediaCore
import Streaming
import Testing

/// What the manifest fuzzer found (scripts/fuzz.sh manifest; each input is kept in Fuzz/corpus/manifest as
/// `regression-*`), each in its smallest form.
@Suite("Manifest fuzzer findings")
struct ManifestFuzzFindingsTests {
    static let url = ManifestSamples.mediaURL

    static func error(_ body: () throws(MediaError) -> Void) -> MediaError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a DASH BaseURL that cannot be resolved: the error names the MPD, and the base it was resolved against")
    func baseURLErrorNamesTheManifest() {
        let text = """
            <MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>https://a.example"x/</BaseURL>
              <Period><BaseURL>p/</BaseURL></Period></MPD>
            """
        let error = Self.error { () throws(MediaError) in
            _ = try DASHManifestParser.parse(text, url: ManifestSamples.mpdURL)
        }
        #expect(error?.kind == .malformedManifest)
        #expect(error?.url == ManifestSamples.mpdURL)
        #expect(error?.reason == "cannot resolve URI 'p/' against 'https://a.example\"x/'")
    }

    @Test("a tag whose name only starts with #EXT-X-STREAM-INF is an unknown tag, not a variant")
    func streamInfPrefix() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-STREAM-INFX:BANDWIDTH=1\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST"
        guard case .media(let playlist) = try HLSPlaylistParser.parse(text, url: Self.url) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.url) == ["https://cdn.example.com/show/v1/a.ts"])
        // Before, a master playlist without variants.
        #expect(try HLSPlaylistParser.parsePresentation(text, url: Self.url).variants.count == 1)
    }

    @Test("#EXT-X-MEDIA-SEQUENCE and #EXT-X-DISCONTINUITY-SEQUENCE after the first segment are malformed")
    func sequenceAfterSegments() {
        for tag in ["#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE"] {
            let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(tag):5\n#EXTINF:2,\na.ts\n\(tag):0\n#EXTINF:2,\nb.ts"
            let error = Self.error { () throws(MediaError) in _ = try HLSPlaylistParser.parse(text, url: Self.url) }
            #expect(error?.kind == .malformedManifest)
            #expect(error?.reason == "line 6: \(tag) after the first segment")
        }
    }

    @Test("from a remote manifest: what resolves to no http(s) URL, or an http(s) URI without a host, is malformed")
    func remoteURIsStayRemote() throws {
        for reference in [":x", ":BANDWIDTH=1#EXT", "https:/k1", "http:k1", "HTTPS:/k1"] {
            let error = Self.error { () throws(MediaError) in
                _ = try ManifestURI.resolve(reference, against: Self.url)
            }
            #expect(error?.kind == .malformedManifest, "\(reference): \(String(describing: error))")
            #expect(error?.url == Self.url)
        }
        let key = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=AES-128,URI=\"https:/k1\"\n#EXTINF:2,\na.ts"
        let error = Self.error { () throws(MediaError) in _ = try HLSPlaylistParser.parse(key, url: Self.url) }
        #expect(error?.reason.contains("without '//' and a host") == true, "\(String(describing: error))")
        // What stays fine: relative references, and absolute ones with a host.
        #expect(try ManifestURI.resolve("../k1", against: Self.url) == "https://cdn.example.com/show/k1")
        #expect(try ManifestURI.resolve("HTTP://h/k1", against: Self.url) == "HTTP://h/k1")
    }

    @Test("DASH @width and @height are non-negative integers, and @frameRate is finite")
    func representationAttributes() {
        let cases = [
            ("width=\"-5\" height=\"1\"", "@width is not a non-negative integer: '-5'"),
            ("width=\"5\" height=\"x\"", "@height is not a non-negative integer: 'x'"),
            ("frameRate=\"1e300/1e-300\"", "@frameRate is not a frame rate: '1e300/1e-300'"),
        ]
        for (attributes, reason) in cases {
            let text = """
                <MPD type="static" mediaPresentationDuration="PT4S"><Period><AdaptationSet contentType="video">
                  <SegmentTemplate media="$Number$.m4s" duration="2"/><Representation id="r" bandwidth="1" \(attributes)/>
                </AdaptationSet></Period></MPD>
                """
            let error = Self.error { () throws(MediaError) in
                _ = try DASHManifestParser.parse(text, url: ManifestSamples.mpdURL)
            }
            #expect(error?.kind == .malformedManifest)
            #expect(error?.reason == reason)
        }
    }
}
