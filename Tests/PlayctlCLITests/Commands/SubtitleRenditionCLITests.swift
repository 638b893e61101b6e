import Foundation
import MediaCore
import PlaybackTesting
import PlayctlOutput
import Testing

/// `probe` and `play` on an HLS presentation with WebVTT subtitle renditions (`subs-hls/`, scripts/make-http-media.sh).
@Suite(
    "playctl on HLS subtitle renditions",
    .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct SubtitleRenditionCLITests {
    static let master = TestHTTPServer.url("subs-hls/master.m3u8")

    @Test("probe --json lists the subtitle renditions with their language and flags")
    func probe() async throws {
        let result = try await CLIProcess.run(["probe", Self.master, "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let renditions = try #require(try JSONValue(parsing: result.standardOutput)["renditions"]?.arrayValue)
        #expect(renditions.map { $0["type"]?.stringValue } == ["subtitles", "subtitles"])
        #expect(renditions.map { $0["name"]?.stringValue } == ["English", "Français"])
        #expect(renditions.map { $0["language"]?.stringValue } == ["en", "fr"])
        #expect(renditions.map { $0["default"]?.boolValue } == [false, true])
        #expect(renditions.map { $0["autoselect"]?.boolValue } == [true, true])
        #expect(renditions.map { $0["forced"]?.boolValue } == [false, false])
    }

    @Test("play --sub-lang en --json: the English cues as item.cue events, at the times written, each once")
    func cues() async throws {
        let result = try await CLIProcess.run(
            ["play", Self.master, "--sub-lang", "en", "--untimed", "--no-audio", "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let selection = events.first { $0["event"]?.stringValue == "item.mediaSelection" && $0["option"] != nil }
        #expect(selection?["option"]?.stringValue == "English", "\(String(describing: selection))")
        let cues = events.filter { $0["event"]?.stringValue == "item.cue" }
        let expected = try SubtitleRenditionMedia.cues("en")
        #expect(cues.map { $0["text"]?.stringValue } == expected.map(\.text), "\(cues)")
        #expect(cues.map { $0["start"]?.doubleValue } == expected.map(\.start.seconds))
        #expect(cues.map { $0["end"]?.doubleValue } == expected.map(\.end.seconds))
        #expect(events.contains { $0["event"]?.stringValue == "item.didPlayToEnd" })
    }

    @Test("play without --sub-lang shows the DEFAULT=YES rendition (French)")
    func defaultRendition() async throws {
        let result = try await CLIProcess.run(
            ["play", Self.master, "--untimed", "--no-audio", "--json"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let cues = events.filter { $0["event"]?.stringValue == "item.cue" }
        #expect(cues.map { $0["text"]?.stringValue } == (try SubtitleRenditionMedia.cues("fr")).map(\.text))
    }
}
