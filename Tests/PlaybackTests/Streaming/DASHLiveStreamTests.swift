import Foundation
import Loading
import Locking
import MediaCore
import Playback
import PlaybackTesting
import Streaming
import Testing

/// A live DASH stream (scripts/dash-live.sh: ffmpeg's dash muxer encoding in real time into a dynamic MPD of a window
/// of 5 segments) played through the stream session: from its live edge, new segments by the wall clock ($Number$)
/// or by reloads of the MPD (SegmentTimeline). In the realtime group of scripts/test-groups.sh: the stream comes at
/// the pace of a real encoder.
@Suite(
    "Adaptive streaming: a live MPD", .serialized,
    .enabled(if: TestHTTPServer.skipReason == nil && LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
struct DASHLiveStreamTests {
    @Test(
        "it plays from its live edge as the encoder goes on, each segment fetched once, times continuous",
        arguments: ["number", "timeline"])
    func playsAtTheEdge(addressing: String) async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "dlive-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/dash-live.sh")
        let started = try await ProcessRunner.run(
            "/bin/bash", [script, "\(root)/\(folder)", "40", addressing], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts: \(started)")
        defer { _ = try? ProcessRunner.run("/bin/bash", [script, "--stop", "\(root)/\(folder)"], timeout: 30) }
        // Three segments complete: the edge (ffmpeg suggests 2 s behind it) has one before it.
        try await waitUntil("three segments written", timeout: .seconds(30)) {
            FileManager.default.fileExists(atPath: "\(root)/\(folder)/chunk-stream0-00003.m4s")
        }
        let url = TestHTTPServer.url("\(folder)/live.mpd")
        // 10 s of media past the edge take the encoder about 10 s more.
        let play = try await LivePlay.run(url, seconds: 10)
        defer { play.player.invalidate() }
        // ffmpeg writes suggestedPresentationDelay="PT2S": the recommended distance from the live edge.
        play.check(recommended: 2, within: 0...6)
        let segments = TestHTTPServer.responses(containing: "/\(folder)/chunk-stream0-").map(\.request)
        #expect(segments.count >= 5, "\(segments)")
        #expect(Set(segments).count == segments.count, "each segment once: \(segments)")
        let failed = TestHTTPServer.responses(containing: "/\(folder)/").filter { !(200..<300).contains($0.status) }
        #expect(failed.isEmpty, "nothing asked for before it was there: \(failed)")
        let loads = TestHTTPServer.responses(containing: "/\(folder)/live.mpd").count
        #expect(loads >= 4, "the MPD was reloaded as the stream went on (\(loads) loads)")
    }

    @Test(
        "an encoder that stops: the play fails with a typed error naming what it could not get",
        arguments: ["number", "timeline"])
    func originStops(addressing: String) async throws {
        let root = try #require(TestHTTPServer.root)
        let folder = "dlive-\(UUID().uuidString.prefix(8))"
        let script = Repository.path("scripts/dash-live.sh")
        let started = try await ProcessRunner.run(
            "/bin/bash", [script, "\(root)/\(folder)", "0", addressing], timeout: 60)
        try #require(started.exitStatus == 0, "the live encoder starts: \(started)")
        let url = TestHTTPServer.url("\(folder)/live.mpd")
        let player = Player(clock: .untimed, audio: false)
        defer { player.invalidate() }
        let frames = Locked(0)
        player.add(VideoSink { _ in frames.withLock { $0 += 1 } })
        let item = PlayerItem(url: url, loading: RemoteLoading(cache: ByteCache()))
        player.replaceCurrentItem(with: item)
        player.play()
        try await waitUntil("a first frame", timeout: .seconds(30)) {
            frames.withLock { $0 } > 0 || item.status == .failed
        }
        // The encoder is killed (SIGKILL: it cannot write a final static MPD). A timeline MPD stops changing: after
        // six reloads that bring nothing the play fails, as a live HLS playlist that stops. A $Number$ MPD goes on
        // naming segments by the clock: the first that was never written is a 404.
        let pid = try String(contentsOfFile: "\(root)/\(folder)/live.pid", encoding: .utf8)
        kill(pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, SIGKILL)
        try await waitUntil("the play failed", timeout: .seconds(60)) { item.status == .failed }
        let error = try #require(item.error)
        if addressing == "timeline" {
            #expect(error.kind == .timedOut, "\(error)")
            #expect(error.url == url)
            #expect(error.reason.contains("brought no new segment"), "\(error.reason)")
        } else {
            #expect(error.url.contains("/\(folder)/chunk-stream0-"), "\(error)")
            #expect(error.reason.contains("404"), "\(error.reason)")
        }
    }
}
