import MediaCore
import Streaming
import Testing

@Suite("HLS subtitle renditions: flags and the renditions a variant plays")
struct SubtitleRenditionListingTests {
    static let text = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (forced)",LANGUAGE="en",FORCED=YES,URI="enf.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="other",NAME="Deutsch",LANGUAGE="de",URI="de.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="No URI",LANGUAGE="it"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,SUBTITLES="subs"
        v0.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=900000
        v1.m3u8
        """

    static func presentation(_ text: String = text) throws -> Presentation {
        guard case .master(let presentation) = try HLSPlaylistParser.parse(text, url: "https://example.com/m.m3u8")
        else { throw MediaError(.other, url: "", operation: .probe, reason: "not a master") }
        return presentation
    }

    @Test("DEFAULT, AUTOSELECT and FORCED as written; a variant offers its group's renditions that have a URI")
    func listing() throws {
        let presentation = try Self.presentation()
        let subtitles = presentation.renditions.filter { $0.kind == .subtitles }
        #expect(subtitles.map(\.isDefault) == [true, false, false, false])
        #expect(subtitles.map(\.isAutoselect) == [true, false, false, false])
        #expect(subtitles.map(\.isForced) == [false, true, false, false])
        let offered = presentation.subtitleRenditions(for: presentation.variants[0])
        #expect(offered.map(\.name) == ["English", "English (forced)"])
        #expect(offered.first?.media == .playlist(url: "https://example.com/en.m3u8"))
        #expect(presentation.subtitleRenditions(for: presentation.variants[1]).isEmpty, "no SUBTITLES group")
    }

    @Test("FORCED that is neither YES nor NO is a malformed playlist naming the line")
    func malformedForced() throws {
        let text = Self.text.replacingOccurrences(of: "FORCED=YES", with: "FORCED=yes")
        #expect(throws: MediaError.self) { try Self.presentation(text) }
        do {
            _ = try Self.presentation(text)
        } catch let error as MediaError {
            #expect(error.kind == .malformedManifest && error.description.contains("line 3"), "\(error)")
        }
    }
}
