import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlBench

/// `playctl-bench run --posters`: the shape of what it prints (never its speed) and the batch it builds.
@Suite("playctl-bench run --posters")
struct PosterBenchTests {
    @Test(
        "--runs 1 --json: first frames locally and over 8 Mbit/s against ffmpeg, and a batch fetching each key once",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh (and its 720p clip)"))
    func reportShape() async throws {
        let result = try await CLIProcess.run(
            ["run", "--posters", "--runs", "1", "--json"], tool: CLIProcess.bench, timeout: 600)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let firstFrame = try #require(report["firstFrame"] as? [[String: Any]])
        #expect(firstFrame.map { $0["link"] as? String } == ["local", "8 Mbit/s"])
        for part in firstFrame {
            for key in ["playctlP50", "ffmpegP50", "pipelineP50"] { #expect((part[key] as? Double ?? 0) > 0, "\(key)") }
        }
        let batch = try #require(report["batch"] as? [String: Any])
        #expect(batch["requests"] as? Int == 300)
        #expect(batch["fetches"] as? Int == batch["distinctKeys"] as? Int)
    }

    @Test("the batch: 300 seeded lines over fewer distinct keys, the same every time")
    func batchList() {
        let (lines, distinct) = PosterBench.batchList(clip: "/x/hd.mp4")
        #expect(lines.count == 300 && distinct < 300 && distinct > 10)
        #expect(PosterBench.batchList(clip: "/x/hd.mp4").lines == lines)
    }
}
