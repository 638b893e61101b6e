import MediaCore
import Streaming
import Testing

@Suite("DASH manifests")
struct DASHManifestParserTests {
    static let url = ManifestSamples.mpdURL

    static func segments(_ reference: MediaReference?) -> [Segment] {
        guard case .segments(let playlist)? = reference else { return [] }
        return playlist.segments
    }

    /// An MPD of one video Representation `v` whose addressing (and BaseURLs) are `body`.
    static func mpd(_ body: String, duration: String = "PT10S", base: String = "") -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="\(duration)">\(base)
          <Period><AdaptationSet contentType="video">
            <Representation id="v" bandwidth="1000">\(body)</Representation>
          </AdaptationSet></Period>
        </MPD>
        """
    }

    static func onlyVariant(_ text: String, url: String = url) throws -> Variant {
        let presentation = try DASHManifestParser.parse(text, url: url)
        #expect(presentation.variants.count == 1)
        return try #require(presentation.variants.first)
    }

    @Test("the sample: variants by bandwidth, attributes, renditions, independent segments")
    func sample() throws {
        let presentation = try DASHManifestParser.parse(ManifestSamples.mpd, url: Self.url)
        #expect(presentation.format == .dash && presentation.independentSegments)
        #expect(presentation.variants.map(\.id) == ["v360", "v720"])
        #expect(presentation.variants.map(\.bandwidth) == [700_000, 2_400_000])
        let v720 = presentation.variants[1]
        #expect(v720.resolution == Resolution(width: 1280, height: 720))
        #expect(v720.codecs == "avc1.64001f")
        #expect(abs((v720.frameRate ?? 0) - 29.97003) < 1e-4)
        #expect(presentation.variants[0].frameRate == 25)
        #expect(v720.audioGroup == "audio" && v720.subtitlesGroup == "subtitles")
        #expect(presentation.renditions.map(\.kind) == [.audio, .subtitles])
        let audio = presentation.renditions[0]
        #expect(audio.language == "en" && audio.isDefault && audio.groupID == "audio")
        #expect(presentation.renditions[1].language == "fr" && !presentation.renditions[1].isDefault)
    }

    @Test("$Number%05d$ with @duration: ceil(total / duration) segments, the last one short, BaseURLs of every level")
    func numberTemplate() throws {
        let presentation = try DASHManifestParser.parse(ManifestSamples.mpd, url: Self.url)
        let segments = Self.segments(presentation.variants[1].media)
        #expect(segments.count == 16)  // 60.5 s in 4 s segments
        let base = "https://media.example.com/show/p0/video/v720/"
        #expect(segments.first?.url == base + "seg-00001.m4s")
        #expect(segments.last?.url == base + "seg-00016.m4s")
        #expect(segments.map(\.sequence) == Array(1...16))
        #expect(segments.dropLast().allSatisfy { $0.duration == 4 })
        #expect(segments.last?.duration == 0.5)
        #expect(segments.last?.start == 60)
        let initialization = InitializationSection(url: base + "init.mp4")
        #expect(segments.allSatisfy { $0.initialization == initialization })
        guard case .segments(let playlist) = presentation.variants[1].media else { return }
        #expect(playlist.kind == .vod && playlist.hasEnd && playlist.targetDuration == 4 && playlist.mediaSequence == 1)
    }

    @Test("$Time$ with a SegmentTimeline: S@r repeats, r=-1 runs to the period's end; $Bandwidth$")
    func timeTemplate() throws {
        let presentation = try DASHManifestParser.parse(ManifestSamples.mpd, url: Self.url)
        let segments = Self.segments(presentation.renditions[0].media)
        // 3 of 2 s, then 1 s ones from 6 s until 60.5 s: 55 more (the last overhangs the end).
        #expect(segments.count == 58)
        let base = "https://media.example.com/show/p0/audio/"
        #expect(segments.prefix(4).map(\.url) == [0, 96000, 192_000, 288_000].map { base + "\($0).m4s" })
        #expect(segments.prefix(4).map(\.duration) == [2, 2, 2, 1])
        #expect(segments.last?.start == 60)
        #expect(segments.first?.initialization == InitializationSection(url: base + "init-128000.mp4"))
    }

    @Test("r=-1 stops at the next S@t; $$ is a dollar; presentationTimeOffset shifts starts")
    func timelineToNext() throws {
        let body = """
            <SegmentTemplate media="t$$$Time$.m4s" initialization="i.mp4" timescale="10" presentationTimeOffset="100">
              <SegmentTimeline><S t="100" d="20" r="-1"/><S t="160" d="5" r="1"/></SegmentTimeline>
            </SegmentTemplate>
            """
        let segments = Self.segments(try Self.onlyVariant(Self.mpd(body)).media)
        #expect(segments.map(\.url) == [100, 120, 140, 160, 165].map { "https://cdn.example.com/show/t$\($0).m4s" })
        #expect(segments.map(\.start) == [0, 2, 4, 6, 6.5])
    }

    @Test("SegmentList: Initialization@sourceURL and @range, SegmentURL@media and @mediaRange")
    func segmentList() throws {
        let body = """
            <BaseURL>files/movie.mp4</BaseURL>
            <SegmentList timescale="1000" duration="4000">
              <Initialization sourceURL="init.mp4" range="0-799"/>
              <SegmentURL media="a.m4s"/>
              <SegmentURL mediaRange="1000-1999"/>
              <SegmentURL media="c.m4s" mediaRange="0-99"/>
            </SegmentList>
            """
        let segments = Self.segments(try Self.onlyVariant(Self.mpd(body)).media)
        let base = "https://cdn.example.com/show/files/"
        #expect(segments.map(\.url) == [base + "a.m4s", base + "movie.mp4", base + "c.m4s"])
        #expect(
            segments.map(\.byteRange) == [
                nil, ByteRange(offset: 1000, length: 1000), ByteRange(offset: 0, length: 100),
            ])
        #expect(segments.map(\.start) == [0, 4, 8])
        let initialization = InitializationSection(url: base + "init.mp4", byteRange: ByteRange(offset: 0, length: 800))
        #expect(segments.allSatisfy { $0.initialization == initialization })
    }

    @Test("SegmentBase: the file's index and header ranges")
    func segmentBase() throws {
        let body = """
            <BaseURL>v.mp4</BaseURL>
            <SegmentBase indexRange="900-1499"><Initialization range="0-899"/></SegmentBase>
            """
        let variant = try Self.onlyVariant(Self.mpd(body))
        #expect(
            variant.media
                == .indexed(
                    url: "https://cdn.example.com/show/v.mp4", initialization: ByteRange(offset: 0, length: 900),
                    index: ByteRange(offset: 900, length: 600)))
    }

    @Test("BaseURLs of MPD, Period, AdaptationSet and Representation resolve in order; absolute ones replace")
    func baseURLs() throws {
        let text = """
            <MPD type="static" mediaPresentationDuration="PT4S"><BaseURL>https://a.example.com/x/</BaseURL>
              <Period><BaseURL>p/</BaseURL><AdaptationSet contentType="video"><BaseURL>../s/</BaseURL>
                <SegmentTemplate media="$RepresentationID$-$Number$.m4s" initialization="i.mp4" duration="4"/>
                <Representation id="r1" bandwidth="1"><BaseURL>r/</BaseURL></Representation>
                <Representation id="r2" bandwidth="2"><BaseURL>https://b.example.com/</BaseURL></Representation>
              </AdaptationSet></Period></MPD>
            """
        let presentation = try DASHManifestParser.parse(text, url: Self.url)
        #expect(Self.segments(presentation.variants[0].media).map(\.url) == ["https://a.example.com/x/s/r/r1-1.m4s"])
        #expect(Self.segments(presentation.variants[1].media).map(\.url) == ["https://b.example.com/r2-1.m4s"])
    }

    @Test("ISO 8601 durations: hours, minutes, fractional seconds, days")
    func durations() throws {
        let body = "<SegmentTemplate media=\"$Number$.m4s\" initialization=\"i.mp4\" duration=\"1\"/>"
        let cases: [(String, Int)] = [
            ("PT1H2M3.5S", 3724), ("PT0.5S", 1), ("P1DT1S", 86401), ("PT2M", 120), ("PT10S", 10),
        ]
        for (duration, count) in cases {
            let segments = Self.segments(try Self.onlyVariant(Self.mpd(body, duration: duration)).media)
            #expect(segments.count == count, "\(duration)")
        }
        for bad in ["1H", "PT", "P1Y", "PT1S2H", "PT-1S", "PTxS"] {
            #expect(throws: MediaError.self, "\(bad)") {
                try DASHManifestParser.parse(Self.mpd(body, duration: bad), url: Self.url)
            }
        }
    }
}
