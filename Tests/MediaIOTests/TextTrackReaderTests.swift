import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Timed text decoded by libavcodec: mov_text, SubRip, ASS, WebVTT")
struct TextTrackReaderTests {
    static func cues(_ reader: TextTrackReader) throws -> [TextCue] {
        var cues: [TextCue] = []
        while let next = try reader.nextCues() { cues += next }
        return cues
    }

    static func simple(_ cues: [TextCue]) -> [TrackClips.Cue] {
        cues.map { TrackClips.Cue($0.start.seconds, $0.end.seconds, $0.text) }
    }

    @Test("in-container tracks: times and text", arguments: TrackClips.clips)
    func containerTracks(clip: String) throws {
        let english = try Self.cues(TextTrackReader(demuxer: Demuxer(url: TrackClips.path(clip)), stream: 3))
        let offset = TrackClips.mediaOffset(clip)
        #expect(TrackClips.matches(Self.simple(english), TrackClips.englishCues.map { $0.shifted(by: offset) }))
        let french = try Self.cues(TextTrackReader(demuxer: Demuxer(url: TrackClips.path(clip)), stream: 4))
        let expected = clip.hasSuffix(".mkv") ? TrackClips.frenchCues : TrackClips.frenchCuesMP4
        #expect(TrackClips.matches(Self.simple(french), expected.map { $0.shifted(by: offset) }), "\(french)")
    }

    @Test("SubRip markup becomes styled runs; ASS keeps its style names and override tags")
    func styles() throws {
        let english = try Self.cues(TextTrackReader(demuxer: Demuxer(url: TrackClips.path("tracks.mkv")), stream: 3))
        #expect(
            english[0].runs == [
                StyledRun(text: "Hello, "), StyledRun(text: "world", isBold: true), StyledRun(text: "."),
            ])
        #expect(english[2].runs == [StyledRun(text: "The end.", isItalic: true)])
        let french = try Self.cues(TextTrackReader(demuxer: Demuxer(url: TrackClips.path("tracks.mkv")), stream: 4))
        #expect(french.map(\.style) == ["Default", "Sign"])
        #expect(french[0].markup == #"Bonjour, {\i1}le monde{\i0}."#)
        #expect(french[1].runs.first == StyledRun(text: "Deuxième", isBold: true))
    }

    @Test("sidecar files: WebVTT and SubRip")
    func sidecars() throws {
        #expect(
            Self.simple(try Self.cues(TextTrackReader(subtitlesAt: TrackClips.path("tracks.vtt"))))
                == TrackClips.sidecarCues)
        #expect(
            Self.simple(try Self.cues(TextTrackReader(subtitlesAt: TrackClips.path("tracks.srt"))))
                == TrackClips.englishCues)
    }

    @Test("a sidecar that is missing, not subtitles, or garbage: a typed error naming the file")
    func badSidecars() throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.srt").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(
            to: URL(fileURLWithPath: garbage))
        let missing = directory.appendingPathComponent("missing.vtt").path
        for (path, kinds) in [
            (missing, [MediaError.Kind.fileNotFound]), (MediaFixtures.path("b.mp4"), [.noDecodableStream]),
            (garbage, [.notMedia, .noDecodableStream, .truncated]),
        ] {
            let error = #expect(throws: MediaError.self) { try TextTrackReader(subtitlesAt: path) }
            #expect(error.map { kinds.contains($0.kind) } == true, "\(path): \(String(describing: error))")
            #expect(error?.url == path)
        }
    }

    @Test("ASS markup: tags, colours, resets and line breaks")
    func markup() {
        let runs = ASSMarkup.runs(of: #"{\b1}A{\b0}B{\c&H0000FF&}C{\r}D\NE{\pos(1,2)}F"#)
        #expect(
            runs == [
                StyledRun(text: "A", isBold: true), StyledRun(text: "B"), StyledRun(text: "C", color: 0xFF0000),
                StyledRun(text: "D\nEF"),
            ])
    }
}
