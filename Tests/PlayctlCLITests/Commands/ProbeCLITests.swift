import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("playctl probe, against ffprobe's references")
struct ProbeCLITests {
    @Test(arguments: MediaFixtures.allClips)
    func jsonMatchesFFprobe(clip: String) async throws {
        let result = try await CLIProcess.run(["probe", MediaFixtures.path(clip), "--json"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        try #require(result.outputLines.count == 1, "probe --json prints one line")
        let ours = try JSONValue(parsing: result.outputLines[0])
        let reference = try JSONValue(parsing: try MediaFixtures.text("ref/\(clip).probe.json"))

        #expect(ours["file"]?.stringValue == MediaFixtures.path(clip))
        #expect(ours["format"]?.stringValue?.isEmpty == false)
        let duration = try #require(ours["duration"]?.doubleValue)
        let expectedDuration = try #require(reference["format"]?["duration"]?.stringValue.flatMap(Double.init))
        #expect(abs(duration - expectedDuration) <= 0.05, "duration \(duration) vs ffprobe \(expectedDuration)")

        let tracks = try #require(ours["tracks"]?.arrayValue)
        let streams = try #require(reference["streams"]?.arrayValue)
        try #require(tracks.count == streams.count)
        for (index, (track, stream)) in zip(tracks, streams).enumerated() {
            #expect(track["index"]?.intValue == index)
            #expect(track["kind"]?.stringValue == stream["codec_type"]?.stringValue)
            #expect(track["codec"]?.stringValue == stream["codec_name"]?.stringValue)
            #expect(track["timeBase"]?.stringValue?.contains("/") == true)
            switch stream["codec_type"]?.stringValue {
            case "video":
                #expect(track["width"]?.intValue == stream["width"]?.intValue)
                #expect(track["height"]?.intValue == stream["height"]?.intValue)
                #expect(track["frameRate"]?.doubleValue != nil)
                #expect(track["pixelFormat"]?.stringValue != nil)
            case "audio":
                #expect(track["sampleRate"]?.intValue == stream["sample_rate"]?.stringValue.flatMap { Int($0) })
                #expect(track["channels"]?.intValue == stream["channels"]?.intValue)
                #expect(track["channelLayout"]?.stringValue != nil)
            default:
                Issue.record("unexpected stream type in \(clip)")
            }
        }
    }

    @Test func rotatedVideoReportsItsDisplaySize() async throws {
        let result = try await CLIProcess.run(["probe", MediaFixtures.path("rotated.mp4"), "--json"])
        let track = try #require(try JSONValue(parsing: result.standardOutput)["tracks"]?[0])
        #expect(track["width"]?.intValue == 320)
        #expect(track["height"]?.intValue == 180)
        #expect(track["rotation"]?.intValue == 90)
        #expect(track["displayWidth"]?.intValue == 180)
        #expect(track["displayHeight"]?.intValue == 320)
    }

    @Test func textOutputNamesEveryTrack() async throws {
        let result = try await CLIProcess.run(["probe", MediaFixtures.path("a.mp4")])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let lines = result.outputLines
        #expect(lines.first == "File:      " + MediaFixtures.path("a.mp4"))
        #expect(lines.contains("Duration:  6.000000 s"))
        #expect(
            lines.contains { $0.hasPrefix("Track #0:") && $0.contains("video h264, 640x360") && $0.contains("30 fps") })
        #expect(lines.contains { $0.hasPrefix("Track #1:") && $0.contains("audio aac, 48000 Hz, 2 channels (stereo)") })
    }

    @Test func containerStartIsReported() async throws {
        let result = try await CLIProcess.run(["probe", MediaFixtures.path("offset.ts"), "--json"])
        let json = try JSONValue(parsing: result.standardOutput)
        #expect(json["startTime"]?.doubleValue == 1.469089)
        #expect(json["format"]?.stringValue == "mpegts")
    }
}
