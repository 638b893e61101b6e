import MediaCore
import Streaming
import Testing

@Suite("HLS master playlists")
struct HLSMasterPlaylistTests {
    private func master(_ text: String = ManifestSamples.master) throws -> Presentation {
        guard case .master(let presentation) = try HLSPlaylistParser.parse(text, url: ManifestSamples.masterURL) else {
            Issue.record("not read as a master playlist")
            throw MediaError(.other, url: "", operation: .probe, reason: "not a master")
        }
        return presentation
    }

    @Test("variants come lowest bandwidth first, with ids of their order in the file")
    func variantsSorted() throws {
        let presentation = try master()
        #expect(presentation.format == .hls)
        #expect(presentation.independentSegments)
        #expect(presentation.variants.map(\.bandwidth) == [800_000, 2_500_000, 5_000_000])
        #expect(presentation.variants.map(\.id) == ["1", "0", "2"])
        #expect(
            presentation.variants.map(\.media) == [
                .playlist(url: "https://cdn.example.com/show/v360/index.m3u8"),
                .playlist(url: "https://cdn.example.com/show/v720/index.m3u8"),
                .playlist(url: "https://other.example.com/v1080/index.m3u8"),
            ])
    }

    @Test("STREAM-INF attributes: quoted codec lists with commas, resolution, frame rate, groups")
    func streamAttributes() throws {
        let v720 = try #require(try master().variants.first { $0.id == "0" })
        #expect(v720.averageBandwidth == 2_000_000)
        #expect(v720.resolution == Resolution(width: 1280, height: 720))
        #expect(v720.codecs == "avc1.64001f,mp4a.40.2")
        #expect(v720.frameRate == 29.97)
        #expect(v720.audioGroup == "aac")
        #expect(v720.subtitlesGroup == "subs")
        let v360 = try #require(try master().variants.first { $0.id == "1" })
        #expect(v360.averageBandwidth == nil && v360.frameRate == nil && v360.subtitlesGroup == nil)
    }

    @Test("EXT-X-MEDIA renditions in file order, names with commas, URIs resolved, captions without one")
    func renditions() throws {
        let renditions = try master().renditions
        #expect(renditions.map(\.kind) == [.audio, .audio, .subtitles, .closedCaptions])
        #expect(renditions[0].name == "English, stereo")
        #expect(renditions[0].groupID == "aac" && renditions[0].language == "en")
        #expect(renditions[0].isDefault && renditions[0].isAutoselect)
        #expect(!renditions[1].isDefault && renditions[1].name == "Français")
        #expect(renditions[1].media == .playlist(url: "https://cdn.example.com/show/audio/fr.m3u8"))
        #expect(renditions[2].media == .playlist(url: "https://cdn.example.com/show/subs/en.m3u8"))
        #expect(renditions[3].media == nil)
        #expect(!renditions[2].isDefault && !renditions[2].isAutoselect)
    }

    @Test("a playlist without INDEPENDENT-SEGMENTS says so; I-frame playlists are not variants")
    func defaults() throws {
        let text = """
            #EXTM3U
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="i.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000
            a.m3u8
            """
        let presentation = try master(text)
        #expect(!presentation.independentSegments)
        #expect(presentation.variants.count == 1)
        #expect(presentation.renditions.isEmpty)
    }

    @Test("a media playlist alone is a presentation of one variant: its segments when complete, else its URL")
    func lonePlaylist() throws {
        let vod = try HLSPlaylistParser.parsePresentation(ManifestSamples.media, url: ManifestSamples.mediaURL)
        #expect(vod.variants.count == 1)
        #expect(vod.variants[0].bandwidth == 0)
        guard case .segments(let playlist) = vod.variants[0].media else {
            Issue.record("a VOD playlist's segments are not inline")
            return
        }
        #expect(playlist.segments.count == 4)
        let live = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n"
        let presentation = try HLSPlaylistParser.parsePresentation(live, url: ManifestSamples.mediaURL)
        #expect(presentation.variants[0].media == .playlist(url: ManifestSamples.mediaURL))
    }
}

extension HLSMasterPlaylistTests {
    @Test("an audio-only variant beside variants with video is dropped (ffmpeg's agroup master); alone it stays")
    func audioOnlyVariants() throws {
        // As ffmpeg's HLS muxer writes it with -var_stream_map "v:0,agroup:aud a:0,agroup:aud".
        let ffmpeg = try master(
            """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_aud",NAME="audio_1",DEFAULT=YES,URI="live1.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=985600,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",AUDIO="group_aud"
            live0.m3u8

            #EXT-X-STREAM-INF:BANDWIDTH=105600,CODECS="mp4a.40.2",AUDIO="group_aud"
            live1.m3u8

            """)
        #expect(ffmpeg.variants.map(\.id) == ["0"] && ffmpeg.variants.first?.resolution?.width == 640)
        #expect(
            ffmpeg.audioRendition(for: ffmpeg.variants[0])?.media
                == .playlist(
                    url: ManifestSamples.masterURL
                        .replacingOccurrences(of: "master.m3u8", with: "live1.m3u8")))
        let audioOnly = try master(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
            low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            high.m3u8

            """)
        #expect(audioOnly.variants.map(\.bandwidth) == [64000, 128000], "a ladder of audio only is kept")
    }
}
