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
    @Test("a play stopped 200 ms three times: the frames due in each stop are dropped, the same in every report")
    func stoppedProcessDropsFrames() async throws {
        // The shell starts playctl, then stops and continues it three times (at about 1, 1.8 and 2.6 s: inside
        // b.mp4's 4 s of playing unless its start took longer than a second), printing the real time (seconds since
        // 1970) once the process is stopped and again before it is continued: a window inside each stop.
        let script = #"""
            "$@" & pid=$!
            for i in 1 2 3; do
                sleep 0.6; kill -STOP $pid; date +%s.%N >&2; sleep 0.2; date +%s.%N >&2; kill -CONT $pid
            done
            wait $pid
            """#
        let result = try await CLIProcess.run(
            ["play", MediaFixtures.path("b.mp4"), "--no-audio", "--json"], launcher: ["/bin/sh", "-c", script, "sh"],
            timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let frames = try MediaFixtures.referenceFrames("b.mp4").map(\.microseconds)
        let microseconds = { (value: JSONValue?) in Int64(((value?.doubleValue ?? .nan) * 1e6).rounded()) }
        let named = { (name: String) in events.filter { $0["event"]?.stringValue == name } }
        var drops: [(times: [Int64], playhead: Int64)] = []
        for drop in named("item.framesDropped") {
            let times = (drop["times"]?.arrayValue ?? []).map(microseconds)
            #expect(drop["count"]?.intValue == times.count && !times.isEmpty, "\(drop)")
            drops.append((times, microseconds(drop["time"])))
        }
        let dropped = drops.flatMap(\.times)
        // Each event: consecutive frames of the clip, superseded by the next one, due by the playhead of the event.
        for drop in drops {
            guard let first = drop.times.first, let index = frames.firstIndex(of: first),
                index + drop.times.count < frames.count
            else {
                Issue.record("not frames of b.mp4 followed by another: \(drop)")
                continue
            }
            #expect(Array(frames[index..<index + drop.times.count]) == drop.times, "\(drop)")
            #expect(frames[index + drop.times.count] <= drop.playhead + 1, "dropped before the next was due: \(drop)")
        }
        #expect(dropped == dropped.sorted() && Set(dropped).count == dropped.count, "\(dropped)")
        let metric = try #require(named("metric.summary").last, "\(result.standardOutput)")
        let summary = try #require(events.last, "\(result.standardOutput)")
        #expect(summary["event"]?.stringValue == "summary")
        for counts in [metric, summary] {
            #expect(
                counts["framesDropped"]?.intValue == dropped.count
                    && counts["framesRendered"]?.intValue == frames.count - dropped.count,
                "\(counts), \(dropped.count) in item.framesDropped events: \(dropped)")
        }
        // From the stops' windows and the frame list: a frame not yet due when a stop began, whose next frame was
        // due before it ended, is superseded before the process runs again: it must be dropped. Real time maps to
        // the player's clock by a metric event's date (milliseconds) and host time, and to the playhead by the last
        // time the player went on playing before the stop (rate 1; a stall at the start of a loaded machine's run
        // moves the playhead off the host clock until then); 3 ms of margin for the date's rounding and the
        // signal's delivery.
        let first = try #require(named("metric.firstFrame").first, "\(result.standardOutput)")
        let stamps = result.errorLines.compactMap(Double.init)
        #expect(stamps.count == 6, "\(result.standardError)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(first["date"]?.stringValue.flatMap(formatter.date(from:)), "\(first)")
        let host = try #require(first["host"]?.doubleValue)
        let hostTime = { (wall: Double) in wall - date.timeIntervalSince1970 + host }
        let playing = named("player.timeControlStatus").filter { $0["status"]?.stringValue == "playing" }
            .compactMap { event in event["host"]?.doubleValue.map { ($0, microseconds(event["time"])) } }
        /// The playhead at real time `wall`, from the last time the player went on playing before `stop` (real).
        let playhead = { (wall: Double, since: (Double, Int64)) -> Int64 in
            since.1 + Int64(((hostTime(wall) - since.0) * 1e6).rounded())
        }
        var mustDrop: [Int64] = []
        var judged = 0
        for stop in stride(from: 0, to: stamps.count - 1, by: 2) {
            // A stop before the player went on playing (a loaded machine's slow start) drops nothing: not judged.
            // Nor one in the first half second after the first frame (CI: a stop there dropped none of the frames
            // its mapping said were due: the clock had not settled on the playhead yet).
            guard hostTime(stamps[stop]) > host + 0.5,
                let since = playing.last(where: { $0.0 <= hostTime(stamps[stop]) })
            else { continue }
            judged += 1
            let (start, end) = (playhead(stamps[stop], since) + 3_000, playhead(stamps[stop + 1], since) - 3_000)
            for (index, frame) in frames.dropLast().enumerated() where frame > start && frames[index + 1] <= end {
                mustDrop.append(frame)
            }
        }
        #expect(Set(mustDrop).isSubset(of: dropped), "due in a stop: \(mustDrop), dropped: \(dropped)")
        // Each stop spans five frame intervals (a stop before the first frame or after the end drops none).
        #expect(judged == 0 || mustDrop.count >= judged, "\(judged) stops judged: \(mustDrop)")
        print(
            "playctl play stopped 3 times for 200 ms: \(dropped.count) of \(frames.count) dropped: \(dropped); due "
                + "in the stops: \(mustDrop)")
    }
}
