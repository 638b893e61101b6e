import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl play` on the host clock when the process is kept from running (SIGSTOP, then SIGCONT 200 ms later, as a
/// machine too busy for it would): the frames due meanwhile are dropped, and `--json` reports each of them
/// (`item.framesDropped`), as many as the session's `metric.summary` and the run's `summary` count. In the isolated
/// realtime group of scripts/test-groups.sh.
@Suite("playctl play: frames dropped on the host clock, reported the same in every place")
struct PlayDropCLITests {
    @Test("a play stopped 200 ms three times: the dropped frames' events, the metric summary and the summary agree")
    func stoppedProcessDropsFrames() async throws {
        // The shell starts playctl, then stops and continues it three times (at about 1, 1.8 and 2.6 s: inside
        // b.mp4's 4 s of playing unless its start took longer than a second), and exits with its status.
        let script = #"""
            "$@" & pid=$!
            for i in 1 2 3; do sleep 0.6; kill -STOP $pid; sleep 0.2; kill -CONT $pid; done
            wait $pid
            """#
        let result = try await CLIProcess.run(
            ["play", MediaFixtures.path("b.mp4"), "--no-audio", "--json"], launcher: ["/bin/sh", "-c", script, "sh"],
            timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let frames = try MediaFixtures.referenceFrames("b.mp4").map(\.microseconds)
        let microseconds = { (value: JSONValue?) in Int64(((value?.doubleValue ?? .nan) * 1e6).rounded()) }
        let drops = events.filter { $0["event"]?.stringValue == "item.framesDropped" }
        var dropped: [Int64] = []
        for drop in drops {
            let times = (drop["times"]?.arrayValue ?? []).map(microseconds)
            #expect(drop["count"]?.intValue == times.count && !times.isEmpty, "\(drop)")
            // Consecutive frames of the clip, superseded by the next one, due by the playhead of the event.
            guard let first = times.first, let index = frames.firstIndex(of: first), index + times.count < frames.count
            else {
                Issue.record("not frames of b.mp4 followed by another: \(drop)")
                continue
            }
            #expect(Array(frames[index..<index + times.count]) == times, "\(drop)")
            #expect(
                frames[index + times.count] <= microseconds(drop["time"]) + 1,
                "dropped before its successor was due: \(drop)")
            dropped += times
        }
        #expect(dropped == dropped.sorted() && Set(dropped).count == dropped.count, "\(dropped)")
        let metric = try #require(
            events.last { $0["event"]?.stringValue == "metric.summary" }, "\(result.standardOutput)")
        let summary = try #require(events.last, "\(result.standardOutput)")
        #expect(summary["event"]?.stringValue == "summary")
        for counts in [metric, summary] {
            #expect(
                counts["framesDropped"]?.intValue == dropped.count
                    && counts["framesRendered"]?.intValue == frames.count - dropped.count,
                "\(counts), \(dropped.count) in item.framesDropped events: \(dropped)")
        }
        // Each stop spans five frame intervals: a frame due in it is superseded before the process runs again (a
        // stop that came before the first frame or after the end drops none: at least one of three did not).
        #expect(dropped.count >= 2, "\(dropped)")
        print("playctl play stopped 3 times for 200 ms: \(dropped.count) of \(frames.count) dropped: \(dropped)")
    }
}
