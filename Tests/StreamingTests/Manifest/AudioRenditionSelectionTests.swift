import MediaCore
import Streaming
import Testing

/// Which alternative audio rendition a variant plays with (``Presentation/audioRendition(for:preferredLanguage:)``).
@Suite("Audio rendition choice")
struct AudioRenditionSelectionTests {
    static let url = "https://cdn.example.com/show/master.m3u8"

    /// A master of one variant in audio group `aac`, with `media` as its `#EXT-X-MEDIA` lines.
    private func master(_ media: [String]) throws -> Presentation {
        let text = (["#EXTM3U"] + media + ["#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO=\"aac\"", "v/index.m3u8"])
            .joined(separator: "\n")
        guard case .master(let presentation) = try HLSPlaylistParser.parse(text, url: Self.url) else {
            Issue.record("not read as a master playlist")
            throw MediaError(.other, url: "", operation: .probe, reason: "not a master")
        }
        return presentation
    }

    private func choice(_ media: [String], language: String? = nil) throws -> String? {
        let presentation = try master(media)
        let variant = try #require(presentation.variants.first)
        return presentation.audioRendition(for: variant, preferredLanguage: language)?.name
    }

    static func line(_ name: String, _ flags: String = "", uri: String? = nil, group: String = "aac") -> String {
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(group)\",NAME=\"\(name)\",LANGUAGE=\"\(name)\"\(flags)"
            + (uri.map { ",URI=\"\($0)\"" } ?? "")
    }

    @Test("HLS: the DEFAULT=YES rendition, else the first AUTOSELECT=YES, else the first; of the variant's group")
    func hlsOrder() throws {
        let others = Self.line("xx-other", ",DEFAULT=YES", uri: "o.m3u8", group: "other")
        #expect(
            try choice([
                others, Self.line("en", uri: "en.m3u8"), Self.line("fr", ",AUTOSELECT=YES", uri: "fr.m3u8"),
                Self.line("de", ",DEFAULT=YES,AUTOSELECT=YES", uri: "de.m3u8"),
            ]) == "de")
        #expect(
            try choice([others, Self.line("en", uri: "en.m3u8"), Self.line("fr", ",AUTOSELECT=YES", uri: "fr.m3u8")])
                == "fr")
        #expect(try choice([others, Self.line("en", uri: "en.m3u8"), Self.line("fr", uri: "fr.m3u8")]) == "en")
        let presentation = try master([Self.line("en", ",DEFAULT=YES", uri: "a/en.m3u8")])
        let variant = try #require(presentation.variants.first)
        let rendition = try #require(presentation.audioRendition(for: variant))
        #expect(rendition.media == .playlist(url: "https://cdn.example.com/show/a/en.m3u8"))
    }

    @Test("HLS: a chosen rendition without a URI is audio muxed in the variant (none), as is a variant without group")
    func muxed() throws {
        #expect(try choice([Self.line("en", ",DEFAULT=YES"), Self.line("fr", uri: "fr.m3u8")]) == nil)
        let presentation = try master([Self.line("en", ",DEFAULT=YES", uri: "en.m3u8")])
        var variant = try #require(presentation.variants.first)
        variant.audioGroup = nil
        #expect(presentation.audioRendition(for: variant) == nil)
    }

    @Test("a preferred language narrows the choice when a rendition has it (en matches en-US)")
    func language() throws {
        let media = [Self.line("en-US", ",DEFAULT=YES", uri: "en.m3u8"), Self.line("fr", uri: "fr.m3u8")]
        #expect(try choice(media, language: "fr") == "fr")
        #expect(try choice(media, language: "en") == "en-US")
        #expect(try choice(media, language: "ja") == "en-US")
    }

    @Test("DASH: the lowest bandwidth Representation of the audio sets")
    func dashLowest() throws {
        let mpd = """
            <MPD type="static" mediaPresentationDuration="PT4S"><Period>
            <AdaptationSet contentType="video"><Representation id="v" bandwidth="800000" width="640" height="360">
            <SegmentTemplate media="v-$Number$.m4s" initialization="v-init.m4s" duration="2" startNumber="1"/>
            </Representation></AdaptationSet>
            <AdaptationSet contentType="audio" mimeType="audio/mp4">
            <Representation id="a128" bandwidth="128000"><SegmentTemplate media="a128-$Number$.m4s"
              initialization="a128-init.m4s" duration="2" startNumber="1"/></Representation>
            <Representation id="a64" bandwidth="64000"><SegmentTemplate media="a64-$Number$.m4s"
              initialization="a64-init.m4s" duration="2" startNumber="1"/></Representation>
            </AdaptationSet></Period></MPD>
            """
        let presentation = try DASHManifestParser.parse(mpd, url: "https://cdn.example.com/show/manifest.mpd")
        let variant = try #require(presentation.variants.first)
        let rendition = try #require(presentation.audioRendition(for: variant))
        #expect(rendition.bandwidth == 64_000)
        guard case .segments(let playlist)? = rendition.media else {
            Issue.record("not a segment list: \(String(describing: rendition.media))")
            return
        }
        #expect(playlist.segments.first?.url == "https://cdn.example.com/show/a64-1.m4s")
    }
}
