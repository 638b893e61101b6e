import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("playctl probe and play: languages, flags, subtitles")
struct TracksCLITests {
    @Test("probe lists every track with its language and flags, as text and JSON", arguments: TrackClips.clips)
    func probe(clip: String) async throws {
        let json = try await CLIProcess.run(["probe", TrackClips.path(clip), "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let tracks = try #require(try JSONValue(parsing: json.outputLines[0])["tracks"]?.arrayValue)
        #expect(tracks.map { $0["kind"]?.stringValue } == ["video", "audio", "audio", "subtitle", "subtitle"])
        #expect(tracks.map { $0["language"]?.stringValue } == [nil, "eng", "fra", "eng", "fra"])
        #expect(tracks[1]["default"]?.boolValue == true && tracks[2]["default"]?.boolValue == false)
        #expect(tracks[3]["bitmap"]?.boolValue == false)
        #expect(tracks[4]["forced"]?.boolValue == clip.hasSuffix(".mkv"))
        let text = try await CLIProcess.run(["probe", TrackClips.path(clip)])
        let lines = text.outputLines
        #expect(lines.contains { $0.hasPrefix("Track #2:") && $0.contains("audio aac") && $0.contains("language fra") })
        #expect(lines.contains { $0.hasPrefix("Track #1:") && $0.hasSuffix("default") })
        if clip.hasSuffix(".mkv") {
            #expect(
                lines.contains { $0.hasPrefix("Track #4:") && $0.contains("subtitle ass") && $0.hasSuffix("forced") })
            #expect(lines.contains { $0.contains(#"title "Français""#) })
        }
    }

    @Test("play --sub-lang eng --json: item.cue events at their times, the same on every run")
    func cuesAsJSON() async throws {
        var runs: [[String]] = []
        for _ in 0..<2 {
            let result = try await CLIProcess.run(
                ["play", TrackClips.path("tracks.mp4"), "--sub-lang", "eng", "--untimed", "--json"], timeout: 60)
            #expect(result.status == 0, "\(result.standardError)")
            let events = try result.outputLines.map { try JSONValue(parsing: $0) }
            let cues = events.filter { $0["event"]?.stringValue == "item.cue" }
            #expect(cues.map { $0["text"]?.stringValue } == TrackClips.englishCues.map(\.text))
            #expect(cues.map { $0["end"]?.doubleValue } == TrackClips.englishCues.map(\.end))
            // libavcodec's mov_text decoder ends the bold with a style reset.
            #expect(cues.first?["markup"]?.stringValue == #"Hello, {\b1}world{\r}."#)
            runs.append(cues.map { $0.serialized() })
        }
        #expect(runs[0] == runs[1])
    }

    @Test("play --sub-file of a missing file: the failure is reported and the film plays to its end")
    func missingSidecar() async throws {
        let missing = "/nonexistent/film.srt"
        let result = try await CLIProcess.run(
            ["play", TrackClips.path("tracks.mp4"), "--sub-file", missing, "--untimed", "--no-audio"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let failure = try #require(result.outputLines.first { $0.contains("item.mediaOptionFailed") })
        #expect(failure.contains(missing) && failure.contains("no such file"), "\(failure)")
        #expect(result.outputLines.contains { $0.contains("item.didPlayToEnd") })
    }

    @Test("probe marks bitmap subtitles as listed, not rendered")
    func bitmap() async throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let path = try TrackClips.bitmapCopy(in: directory)
        let text = try await CLIProcess.run(["probe", path])
        #expect(
            text.outputLines.contains {
                $0.hasPrefix("Track #4:") && $0.contains("hdmv_pgs_subtitle, bitmap (listed, not rendered)")
            })
        let json = try await CLIProcess.run(["probe", path, "--json"])
        let tracks = try #require(try JSONValue(parsing: json.outputLines[0])["tracks"]?.arrayValue)
        #expect(tracks[4]["bitmap"]?.boolValue == true && tracks[3]["bitmap"]?.boolValue == false)
    }
}
