import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench

/// `playctl-bench run --abr`: what it refuses outside scripts/netns.sh, and the pieces its figures come from (the
/// access log, the link's schedule, playctl's switch events, mpv's log, the ladder). Its help example runs inside
/// netns in ``HelpExampleTests``.
@Suite("playctl-bench run --abr")
struct ABRBenchTests {
    @Test("without the test HTTP server it exits 1, saying to run it through scripts/bench.sh --abr")
    func refusesWithoutTheServer() async throws {
        let result = try await CLIProcess.runWithoutServer(
            ["run", "--abr", "--runs", "1", "--abr-seconds", "12"], tool: CLIProcess.bench)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("run it through scripts/bench.sh --abr"), "\(result.standardError)")
    }

    @Test("nginx's access log: port, status, bytes sent and path; other lines are skipped")
    func accessLogLines() {
        let line: Substring = #"18030 206 206885 "GET /ladder/hls-ts/v0/seg000.ts HTTP/1.1" "bytes=0-262143""#
        #expect(
            AccessLog.parse(line)
                == AccessLog.Response(port: 18030, status: 206, bytesSent: 206885, path: "ladder/hls-ts/v0/seg000.ts"))
        #expect(AccessLog.parse("garbage") == nil)
        #expect(AccessLog.parse(#"18030 400 150 "-" "-""#) == nil)
    }

    @Test("the link's schedule: 8 -> 1.5 -> 8 Mbit/s at a sixth and a half of the run, and its mean")
    func schedule() {
        let schedule = LinkSchedule.standard(seconds: 60)
        #expect(schedule.steps.map(\.seconds) == [0, 10, 30])
        #expect(schedule.text == "8 -> 1.5 Mbit/s at 10 s -> 8 Mbit/s at 30 s")
        // (10 * 8 + 20 * 1.5 + 30 * 8) / 60
        #expect(abs(schedule.meanBitsPerSecond(over: 60) - 5_833_333.33) < 1)
        #expect(schedule.meanBitsPerSecond(over: 10) == 8_000_000)
        #expect(abs(schedule.meanBitsPerSecond(over: 20) - 4_750_000) < 1e-6)
    }

    @Test("playctl's switch events: the variant of each segment, the switches, the stalls")
    func playctlEvents() {
        let lines = """
            {"event":"item.variantSwitch","from":null,"to":{"id":"0","bandwidth":1,"resolution":null},"at":0.0,\
            "segment":0,"reason":"initial","estimate":500000.0}
            not json
            {"event":"item.variantSwitch","from":{"id":"0"},"to":{"id":"3"},"at":4.0,"segment":2,"reason":"up"}
            {"event":"metric.stall"}
            {"event":"item.variantSwitch","from":{"id":"3"},"to":{"id":"1"},"at":8.0,"segment":4,"reason":"down"}
            {"event":"summary","firstFrameMs":99.5}
            """
        let events = PlayctlEvents(jsonLines: lines)
        #expect(events.variants(ofSegments: 6) == [0, 0, 3, 3, 1, 1])
        #expect(events.switchCount() == 2)
        #expect(events.switchCount(segments: 4) == 1)
        #expect(events.stalls == 1)
        #expect(events.firstFrameMilliseconds == 99.5)
        #expect(events.decisionLines.first == "start -> v0 from segment 0 (0.0 s): initial, estimate 0.50 Mbit/s")
    }

    @Test("mpv's stalls: Enter buffering after its start, not the wait for the cache right after it")
    func mpvStalls() {
        let log = """
            [   0.100][v][cplayer] Enter buffering (buffer went from 100% -> 0%) [0.000000s].
            [   1.000][v][cplayer] playback restart complete @ 0.021356, audio=playing, video=playing
            [   1.100][v][cplayer] Enter buffering (buffer went from 100% -> 0%) [0.000000s].
            [   2.000][v][cplayer] End buffering (waited 0.9 secs) [0.9s].
            [  12.000][v][cplayer] Enter buffering (buffer went from 100% -> 0%) [0.000000s].
            """
        #expect(ABRPlay.mpvStalls(log: log) == 1)
        #expect(ABRPlay.mpvStalls(log: "nothing") == nil)
    }

    @Test("the ladder's bits played, and the variant mpv followed despite its probing of the others")
    func ladderFigures() {
        func variant(_ index: Int, bytes: Int64) -> LocalLadder.Variant {
            LocalLadder.Variant(
                playlist: "l/v\(index)/index.m3u8", playlistBytes: 100, bandwidth: 0, resolution: nil,
                segments: (0..<3).map { .init(path: "l/v\(index)/seg00\($0).ts", duration: 2, bytes: bytes) })
        }
        let ladder = LocalLadder(
            master: "l/master.m3u8", masterBytes: 50, variants: [variant(0, bytes: 1000), variant(1, bytes: 3000)])
        let found = ladder.segment(atPath: "l/v1/seg002.ts")
        #expect(found?.variant == 1 && found?.index == 2)
        #expect(ladder.start(ofSegment: 2) == 4)
        // 1000 + 3000 bytes over 4 s
        #expect(ABRPlay.playedRate([0, 1, nil], ladder: ladder) == 8000)
        let responses = ["l/v0/seg000.ts", "l/v1/seg000.ts", "l/v1/seg001.ts", "l/v1/seg002.ts"].map {
            AccessLog.Response(port: 18030, status: 200, bytesSent: 1, path: $0)
        }
        #expect(ABRPlay.followedVariant(responses, ladder: ladder, count: 3) == [1, 1, 1])
        #expect(ABRPlay.changes([0, nil, 0, 1, 1, 0]) == 2)
        #expect(ABRPlay.runs([0, 0, 1, nil]) == "v0 x2, v1 x1, none x1")
    }

    @Test(
        "the 60 s ladder as a DASH MPD: four Representations of 30 segments, as the HLS one, read by the engine's parser",
        .enabled(if: LadderMedia.skipReason == nil, "needs scripts/netns.sh"))
    func dashLadder() throws {
        let root = (LadderMedia.directory as NSString).deletingLastPathComponent
        let dash = try LocalLadder.readDASH(ABRBench.longDASH, root: root)
        let hls = try LocalLadder.read(ABRBench.longMaster, root: root)
        #expect(dash.variants.map(\.resolution) == ["640x360", "960x540", "1280x720", "1920x1080"])
        #expect(dash.variants.map(\.segments.count) == [30, 30, 30, 30])
        #expect(dash.variants.allSatisfy { $0.segments.allSatisfy { $0.bytes > 0 && $0.duration == 2 } })
        let path = try #require(dash.variants.last?.segments.last?.path)
        #expect(path == "ladder/long-dash/chunk-stream3-00030.m4s")
        #expect(dash.segment(atPath: path)?.variant == 3)
        // The same video bytes as the HLS ladder's, without its audio (96 kbit/s) and TS packets: 75-100% of it.
        for (d, h) in zip(dash.variants, hls.variants) {
            let ratio = d.averageBitsPerSecond / h.averageBitsPerSecond
            #expect(ratio > 0.75 && ratio < 1.0, "\(d.resolution ?? ""): \(ratio)")
        }
    }
}
