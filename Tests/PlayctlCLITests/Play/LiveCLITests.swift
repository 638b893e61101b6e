import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl play URL.mpd --json` on a live MPD (scripts/dash-live.sh: ffmpeg's dash muxer in real time): the item is
/// live (no duration) and the summary says how far behind the live edge the run ended, as for live HLS. In the
/// realtime group of scripts/test-groups.sh: the stream comes at the pace of a real encoder.
@Suite("playctl play on a live MPD", .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
struct LiveCLITests {
    @Test("readyToPlay with no duration; the summary's timeOffsetFromLive within the edge's distance")
    func liveMPD() async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "dlive-cli-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/dash-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "30"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts: \(started)")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        let url = TestHTTPServer.url("\(folder)/live.mpd")
        let result = try await CLIProcess.run(["play", url, "--json", "--until", "4", "--no-audio"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let ready = try #require(lines.first { $0["event"] as? String == "item.status" }, "\(result.standardOutput)")
        #expect(ready["status"] as? String == "readyToPlay")
        #expect(ready["duration"] is NSNull, "a live item has no duration: \(ready)")
        let summary = try #require(lines.last { $0["event"] as? String == "summary" })
        let offset = try #require(summary["timeOffsetFromLive"] as? Double, "\(summary)")
        // ffmpeg suggests 2 s behind the edge; played in real time, the run ends within a segment or two of it.
        #expect(offset >= 0 && offset <= 6, "\(offset)")
        #expect((summary["framesRendered"] as? Int ?? 0) > 60, "\(summary)")
    }

    @Test("live HLS with an audio rendition of its own: played with its sound through the daemon, in step")
    func liveAudioRendition() async throws {
        guard PulseServer.address != nil else { throw PulseServer.Failure(message: PulseServer.missingReason) }
        let root = try #require(TestHTTPServer.root)
        let folder = "live-cli-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/ladder-live.sh")
        let started = try await ProcessRunner.run("/bin/bash", [script, "\(root)/\(folder)", "40", "a"], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts: \(started)")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        try await waitUntil("three segments listed", timeout: .seconds(30)) {
            let text = (try? String(contentsOfFile: "\(root)/\(folder)/live0.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        let url = TestHTTPServer.url("\(folder)/live.m3u8")
        let result = try await CLIProcess.run(
            ["play", url, "--json", "--until", "6", "--audio", "pulse"], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let output = events.first { $0["event"]?.stringValue == "player.audioOutput" }
        #expect(output?["output"]?.stringValue == "pulse" && output?["error"] == .null, "\(String(describing: output))")
        let ready = try #require(events.first { $0["event"]?.stringValue == "item.status" })
        #expect(ready["status"]?.stringValue == "readyToPlay" && ready["duration"] == .null, "\(ready)")
        let summary = try #require(events.last { $0["event"]?.stringValue == "summary" })
        // The sound was played: the video followed its clock (an offset is measured only with audio playing).
        let avsync = try #require(summary["avsyncMs"]?.doubleValue, "\(summary)")
        #expect(abs(avsync) < 100, "\(summary)")
        #expect((summary["framesRendered"]?.intValue ?? 0) > 120, "\(summary)")
        let offset = try #require(summary["timeOffsetFromLive"]?.doubleValue, "\(summary)")
        #expect(offset >= 0 && offset <= 10, "\(offset)")
        let audio = TestHTTPServer.responses(containing: "/\(folder)/live1_").map(\.request)
        #expect(audio.count >= 3 && Set(audio).count == audio.count, "its audio segments, each once: \(audio)")
    }
}
