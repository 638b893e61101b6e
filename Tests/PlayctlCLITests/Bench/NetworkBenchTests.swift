import Foundation
import MediaIO
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench

/// `playctl-bench run --network`: what it refuses outside scripts/netns.sh, the shape of what it prints inside (never its
/// speed), and the helpers behind it.
@Suite("playctl-bench run --network")
struct NetworkBenchTests {
    @Test("without the test HTTP server it exits 1, saying to run it through scripts/bench.sh --network")
    func refusesWithoutTheServer() async throws {
        let result = try await CLIProcess.runWithoutServer(
            ["run", "--network", "--runs", "1"], tool: CLIProcess.bench)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("run it through scripts/bench.sh --network"), "\(result.standardError)")
    }

    @Test(
        "--runs 1 --json: one object with the first frame over three links, the cached starts and the bytes",
        .enabled(if: TestHTTPServer.skipReason == nil, "needs scripts/netns.sh"))
    func reportShape() async throws {
        let result = try await CLIProcess.run(
            ["run", "--network", "--runs", "1", "--json"], tool: CLIProcess.bench, timeout: 600)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputLines.count == 1, "one JSON object")
        let report = try JSONValue(parsing: result.standardOutput)
        #expect(report["file"]?.stringValue == "hd.mp4")
        #expect(report["runs"]?.intValue == 1)
        #expect(report["shaped"]?.boolValue == TestHTTPServer.isShaped)
        let links = try #require(report["firstFrame"]?.arrayValue)
        #expect(links.map { $0["port"]?.intValue } == [18008, 18020, 18002])
        for link in links {
            let tools = try #require(link["tools"])
            for tool in ["playctl", "ffmpeg"] {
                #expect(tools[tool]?["wallSeconds"]?.arrayValue?.count == 1, "\(tool)")
                #expect((tools[tool]?["medianSeconds"]?.doubleValue ?? 0) > 0, "\(tool)")
            }
            #expect(tools["playctl"]?["command"]?.arrayValue?.contains(.string("--frames")) == true)
            #expect(link["reference"]?.stringValue != nil && link["ratio"]?.doubleValue != nil)
        }
        #expect(links[0]["target"]?.doubleValue == 1.0 && links[0]["targetMet"]?.boolValue != nil)
        #expect(links[1]["target"] == .null && links[2]["target"] == .null)
        let cached = try #require(report["cachedStartup"])
        for key in ["localSeconds", "memorySeconds", "diskSeconds"] {
            #expect(cached[key]?.arrayValue?.count == 1, "\(key)")
        }
        #expect(cached["memoryRatio"]?.doubleValue != nil && cached["diskRatio"]?.doubleValue != nil)
        #expect(cached["target"]?.doubleValue == 1.1 && cached["targetMet"]?.boolValue != nil)
        #expect(cached["bytesFetched"]?.intValue == 0, "a start from a full cache fetches nothing")
        let fullPlay = try #require(report["fullPlay"])
        let size = try FileManager.default.attributesOfItem(atPath: TestHTTPServer.localPath("hd.mp4"))[.size] as? Int
        #expect(fullPlay["fileBytes"]?.intValue == size)
        #expect((fullPlay["bytesFetched"]?.intValue ?? 0) >= (size ?? .max), "a full play fetches the whole file")
        #expect(fullPlay["target"]?.doubleValue == 1.02 && fullPlay["targetMet"]?.boolValue != nil)
    }

    @Test("the table: a section per link with its ratio, the cached starts and the bytes, each against its target")
    func tableShape() {
        func timing(_ tool: String, _ seconds: Double, _ arguments: [String]) -> BenchTiming {
            BenchTiming(
                benchCase: BenchCase(tool: tool, executable: "/usr/bin/" + tool, arguments: arguments),
                wallSeconds: [seconds], peakRSSKiB: [1024], cpuSeconds: [seconds / 2])
        }
        let links = NetworkBench.links.map { link in
            let url = TestHTTPServer.url("hd.mp4", over: link)
            return NetworkReport.LinkTimings(
                link: link, url: url,
                timings: [
                    timing("playctl", 0.2, ["play", url, "--frames", "1"]),
                    timing("ffmpeg", 0.25, ["-loglevel", "error", "-i", url, "-f", "null", "-"]),
                    timing("mpv", 0.5, ["--frames=1", url]),
                ])
        }
        let play = NetworkReport.FullPlay(bytesFetched: 1030, bytesReceived: 1100, transfers: 2, seconds: 3)
        var cached = NetworkReport.CachedStartup(fill: play)
        cached.local = [0.010]
        cached.memory = [0.010]
        cached.disk = [0.012]
        let report = NetworkReport(
            file: "hd.mp4", localPath: "/srv/hd.mp4", fileBytes: 1000,
            track: TrackInfo(
                index: 0, kind: .video, codec: "h264", isDecodable: true, timeBase: (1, 30), width: 1280, height: 720,
                frameRate: 30),
            duration: MediaTime(seconds: 8), shaped: true, waitsForIdleLink: true, busyWaits: 0,
            tools: BenchTools(
                ffmpeg: "/usr/bin/ffmpeg", ffmpegVersion: "ffmpeg version 5.1", mpv: "/usr/bin/mpv",
                mpvVersion: "mpv 0.35.1", cpuCount: 2),
            playctl: "/x/release/playctl", runs: 1, firstFrame: links, cachedStartup: cached, fullPlay: play,
            loadAverage: (0.1, 0.2))
        let text = report.textLines.joined(separator: "\n")
        for rate in ["8 Mbit/s", "20 Mbit/s", "2 Mbit/s"] {
            #expect(text.contains("Time to first frame over \(rate): U = http://"), "\(rate)")
        }
        #expect(text.contains("playctl play U --frames 1") && text.contains("ffmpeg -i U -f null -"))
        #expect(text.contains("playctl / min(ffmpeg, mpv) = playctl / ffmpeg: 0.800x (target <= 1.00x: met)"))
        #expect(text.contains("0.800x (the target is set at 8 Mbit/s)"))
        #expect(text.contains("1.000x (target <= 1.10x: met)"))
        #expect(text.contains("1.200x (target <= 1.10x: NOT met)"))
        #expect(
            text.contains(
                "1030 bytes kept (1100 received) in 2 transfers for a 1000-byte file (3.00 s): 1.030x (target <= 1.02x: "
                    + "NOT met)"))
        #expect(report.json["fullPlay"]?["bytesReceived"]?.intValue == 1100)
        #expect(report.json["fullPlay"]?["targetMet"]?.boolValue == false)
        #expect(report.json["cachedStartup"]?["targetMet"]?.boolValue == false)
    }

    @Test("tc's statistics tell an idle link from one with bytes queued")
    func idleLinkFromTCStatistics() {
        let idle = """
            class htb 1:2 root prio 0 rate 2Mbit ceil 2Mbit burst 32Kb cburst 1600b
             Sent 238241 bytes 161 pkt (dropped 0, overlimits 17 requeues 0)
             backlog 0b 0p requeues 0
            """
        let busy = idle + "\nclass htb 1:8 root prio 0 rate 8Mbit\n Sent 1 bytes 1 pkt\n backlog 127176b 5p requeues 0"
        #expect(LinkQuiet.isIdle(idle))
        #expect(!LinkQuiet.isIdle(busy))
    }
}
