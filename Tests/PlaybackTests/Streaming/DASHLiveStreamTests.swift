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

    @Test("an origin that writes the newest $Number$ segment 5 s late: asked again until it is there, the play goes on")
    func lateSegment() async throws {
        // The ladder's 360p DASH segments (2 s each) as a live MPD whose clock says segments 1-4 are complete; the
        // play starts at 4 (2 s behind the edge). Segment 5 is due 1.7 s from now and written 5 s after that (past
        // the loader's own retries, 3.5 s), then 6, late too.
        let root = try #require(TestHTTPServer.root)
        let folder = "dlate-\(UUID().uuidString.prefix(8))"
        let directory = "\(root)/\(folder)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ladder = LadderMedia.path("dash")
        func copy(_ name: String) throws {
            try FileManager.default.copyItem(atPath: "\(ladder)/\(name)", toPath: "\(directory)/\(name)")
        }
        try copy("init-stream0.m4s")
        for number in 1...4 { try copy(String(format: "chunk-stream0-%05d.m4s", number)) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = formatter.string(from: Date().addingTimeInterval(-8.3))
        let mpd = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="\(start)" \
            suggestedPresentationDelay="PT2S" timeShiftBufferDepth="PT20S" minBufferTime="PT2S">
              <Period start="PT0S"><AdaptationSet contentType="video" mimeType="video/mp4">
                <Representation id="0" bandwidth="800000" width="640" height="360" codecs="avc1.64001e">
                  <SegmentTemplate timescale="1000000" duration="2000000" startNumber="1" \
            initialization="init-stream0.m4s" media="chunk-stream0-$Number%05d$.m4s"/>
                </Representation>
              </AdaptationSet></Period>
            </MPD>
            """
        try mpd.write(toFile: "\(directory)/live.mpd", atomically: true, encoding: .utf8)
        let writer = Task {
            try await Task.sleep(for: .milliseconds(6700))
            try copy("chunk-stream0-00005.m4s")
            try copy("chunk-stream0-00006.m4s")
        }
        defer { writer.cancel() }
        let play = try await LivePlay.run(TestHTTPServer.url("\(folder)/live.mpd"), seconds: 5)
        defer { play.player.invalidate() }
        #expect(play.item.status == .readyToPlay, "\(String(describing: play.item.error))")
        #expect(play.times.count >= 150, "segments 4-6 shown: \(play.times.count) frames")
        #expect(zip(play.times, play.times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no gap")
        let late = TestHTTPServer.responses(containing: "/\(folder)/chunk-stream0-00005")
        #expect(
            late.contains { $0.status == 404 } && (200..<300).contains(late.last?.status ?? 0), "\(late.map(\.status))")
    }
}
