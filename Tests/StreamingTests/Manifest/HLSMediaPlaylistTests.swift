import Foundation
import MediaCore
import Streaming
import Testing

@Suite("HLS media playlists")
struct HLSMediaPlaylistTests {
    static func media(_ text: String, url: String = ManifestSamples.mediaURL) throws -> MediaPlaylist {
        guard case .media(let playlist) = try HLSPlaylistParser.parse(text, url: url) else {
            Issue.record("not read as a media playlist")
            throw MediaError(.other, url: url, operation: .probe, reason: "not a media playlist")
        }
        return playlist
    }

    @Test("segments: resolved URIs, durations, running starts, sequence numbers")
    func segments() throws {
        let playlist = try Self.media(ManifestSamples.media)
        #expect(playlist.kind == .vod && playlist.hasEnd)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 100)
        let base = "https://cdn.example.com/show/v1/"
        #expect(
            playlist.segments.map(\.url) == [
                base + "media.mp4", base + "media.mp4", base + "other.ts", base + "clear.ts",
            ])
        #expect(playlist.segments.map(\.duration) == [6.006, 5.5, 4, 3.25])
        #expect(playlist.segments.map(\.start) == [0, 6.006, 6.006 + 5.5, 6.006 + 5.5 + 4])
        #expect(playlist.segments.map(\.sequence) == [100, 101, 102, 103])
        #expect(playlist.segments.map(\.discontinuity) == [false, false, true, false])
        #expect(abs(playlist.duration - 18.756) < 1e-9)
    }

    @Test("byte ranges with an offset, and without one continuing the previous range of the URI")
    func byteRanges() throws {
        let playlist = try Self.media(ManifestSamples.media)
        #expect(playlist.segments[0].byteRange == ByteRange(offset: 720, length: 1000))
        #expect(playlist.segments[1].byteRange == ByteRange(offset: 1720, length: 2000))
        #expect(playlist.segments[2].byteRange == nil)
    }

    @Test("EXT-X-MAP applies to every segment after it, with its byte range")
    func map() throws {
        let playlist = try Self.media(ManifestSamples.media)
        let map = InitializationSection(
            url: "https://cdn.example.com/show/v1/init.mp4", byteRange: ByteRange(offset: 0, length: 720))
        #expect(playlist.segments.allSatisfy { $0.initialization == map })
    }

    @Test("EXT-X-KEY: AES-128 with an IV, then without one (the sequence number), then NONE")
    func keys() throws {
        let segments = try Self.media(ManifestSamples.media).segments
        let first = try #require(segments[0].key)
        #expect(first.url == "https://keys.example.com/k1")
        #expect(first.iv == Array(0..<16))
        #expect(first.iv(forSequence: 100) == Array(0..<16))
        #expect(segments[1].key == first)
        let second = try #require(segments[2].key)
        #expect(second.url == "https://cdn.example.com/show/keys/k2")
        #expect(second.iv == nil)
        #expect(second.iv(forSequence: 102) == Array(repeating: 0, count: 15) + [102])
        #expect(segments[3].key == nil)
    }

    @Test("kinds: VOD type, ENDLIST alone, EVENT with and without ENDLIST, neither")
    func kinds() throws {
        func kind(_ tags: String) throws -> (MediaPlaylist.Kind, Bool) {
            let playlist = try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:4\n\(tags)\n#EXTINF:4,\na.ts\n")
            return (playlist.kind, playlist.hasEnd)
        }
        #expect(try kind("#EXT-X-PLAYLIST-TYPE:VOD") == (.vod, true))
        #expect(try kind("#EXT-X-ENDLIST") == (.vod, true))
        #expect(try kind("#EXT-X-PLAYLIST-TYPE:EVENT") == (.event, false))
        #expect(try kind("#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-ENDLIST") == (.vod, true))
        #expect(try kind("") == (.live, false))
    }

    @Test("a live window: media and discontinuity sequences, no segments yet is fine")
    func liveWindow() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:5000
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXTINF:2.000,
            s5000.ts
            #EXTINF:2.000,
            s5001.ts
            """
        let playlist = try Self.media(text)
        #expect(playlist.kind == .live)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.segments.map(\.sequence) == [5000, 5001])
        #expect(try Self.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n").segments.isEmpty)
    }

    @Test("CRLF line endings, a byte order mark, blank lines and padding read as LF")
    func lineEndings() throws {
        let lf = try Self.media(ManifestSamples.media)
        let crlf = "\u{FEFF}" + ManifestSamples.media.replacingOccurrences(of: "\n", with: "\r\n\r\n  ")
        #expect(try Self.media(crlf) == lf)
    }

    @Test("a local playlist may name files next to it")
    func localPlaylist() throws {
        let playlist = try Self.media(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg.ts\n", url: "/media/x/index.m3u8")
        #expect(playlist.segments[0].url == "/media/x/seg.ts")
    }
}

/// `#EXT-X-PROGRAM-DATE-TIME`: each segment's date, named or carried from the one before (not across a
/// discontinuity).
@Suite("HLS program date times")
struct HLSProgramDateTests {
    @Test("named, carried by the durations, lost at a discontinuity without one, named again (after #EXTINF too)")
    func dates() throws {
        let playlist = try HLSMediaPlaylistTests.media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-PROGRAM-DATE-TIME:2027-01-15T08:00:00.500Z
            #EXTINF:2,
            a.ts
            #EXTINF:1.5,
            b.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2,
            c.ts
            #EXT-X-PROGRAM-DATE-TIME:2027-01-15T09:00:00+01:00
            #EXTINF:2,
            d.ts
            #EXTINF:2,
            #EXT-X-PROGRAM-DATE-TIME:2027-01-15T08:00:10.250+0000
            e.ts
            """)
        let start = 1_800_000_000.5  // 2027-01-15T08:00:00.500Z
        let dates = playlist.segments.map(\.programDate)
        #expect(dates == [start, start + 2, nil, start - 0.5, start + 9.75], "ffmpeg's +0000 read too")
    }

    @Test("a date that is not ISO 8601 is a malformed manifest naming the line")
    func badDate() {
        #expect(throws: MediaError.self) {
            try HLSMediaPlaylistTests.media("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n")
        }
        do {
            _ = try HLSMediaPlaylistTests.media(
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n")
        } catch let error as MediaError {
            #expect(error.kind == .malformedManifest)
            #expect(error.reason.contains("line 3"), "\(error.reason)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
