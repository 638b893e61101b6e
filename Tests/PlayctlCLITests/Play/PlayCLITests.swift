import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl play`: spawned as a user would, its JSON Lines read back.
@Suite("playctl play")
struct PlayCLITests {
    static func events(_ result: CLIProcess.Result) throws -> [JSONValue] {
        try result.outputLines.map { try JSONValue(parsing: $0) }
    }

    static func names(_ events: [JSONValue]) -> [String] {
        events.compactMap { $0["event"]?.stringValue }
    }

    @Test("--json: every line has event, host and time; the item plays to its end; summary last")
    func jsonVocabulary() async throws {
        let result = try await CLIProcess.run(["play", MediaFixtures.path("b.mp4"), "--untimed", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.events(result)
        for event in events {
            #expect(event["event"]?.stringValue != nil && event["host"]?.doubleValue != nil && event["time"] != nil)
            if let name = event["event"]?.stringValue, name.hasPrefix("item.") {
                #expect(event["item"]?.stringValue == "b.mp4")
            }
        }
        let names = Self.names(events)
        #expect(names.first == "player.currentItem")
        #expect(
            names.contains("item.status") && names.contains("player.timeControlStatus") && names.contains("player.rate")
        )
        #expect(names.suffix(2) == ["item.didPlayToEnd", "summary"] || names.suffix(4).contains("item.didPlayToEnd"))
        let summary = try #require(events.last)
        #expect(summary["framesRendered"]?.intValue == 100)
        #expect(summary["framesDropped"]?.intValue == 0)
        // Untimed time waits for the video decoder (even with audio queued ahead): nothing is ever late.
        #expect(!names.contains("item.stalled"), "an untimed player never stalls on a local file")
        let ready = try #require(events.first { $0["status"]?.stringValue == "readyToPlay" })
        #expect(abs((ready["duration"]?.doubleValue ?? 0) - 4.0) < 0.01)
    }

    @Test("--frames N stops once N frames were shown, exits 0 and says so in the summary")
    func framesStopsEarly() async throws {
        let result = try await CLIProcess.run(["play", MediaFixtures.path("a.mp4"), "--frames", "1", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.events(result)
        let names = Self.names(events)
        #expect(names.contains("metric.firstFrame"))
        #expect(!names.contains("item.didPlayToEnd"), "a 6 s clip does not play to its end")
        let summary = try #require(events.last)
        #expect(summary["event"]?.stringValue == "summary")
        // On the host clock a frame may fall due while the command stops (a starved process renders 2 now and
        // then): at least the one asked for. The exact count is judged in virtual time, below.
        #expect((summary["framesRendered"]?.intValue ?? 0) >= 1)
        for count in [1, 3] {
            let untimed = try await CLIProcess.run([
                "play", MediaFixtures.path("a.mp4"), "--frames", "\(count)", "--untimed", "--json",
            ])
            #expect(untimed.status == 0, "\(untimed.standardError)")
            #expect(try Self.events(untimed).last?["framesRendered"]?.intValue == count)
        }
        for bad in [["--frames", "0"], ["--frames", "2", "--pip"]] {
            #expect(try await CLIProcess.run(["play", MediaFixtures.path("a.mp4")] + bad).status == 2, "\(bad)")
        }
    }

    @Test("--seek SEC@AT seeks exactly when the media time reaches AT, reported as request/completion pairs")
    func scheduledSeeks() async throws {
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--untimed", "--seek", "1@0.5", "--seek", "3@2", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.events(result)
        let requests = events.filter { $0["event"]?.stringValue == "metric.seek" }
        let completions = events.filter { $0["event"]?.stringValue == "metric.seekDidComplete" }
        #expect(requests.map { $0["requestedTime"]?.doubleValue } == [1.0, 3.0])
        #expect(requests.map { $0["id"]?.intValue } == completions.map { $0["id"]?.intValue })
        #expect(completions.allSatisfy { $0["finished"]?.boolValue == true })
        #expect(
            abs((requests[0]["time"]?.doubleValue ?? 0) - 1.0) < 1e-6, "time reports the target from the request on")
        #expect(abs((requests[0]["fromTime"]?.doubleValue ?? 0) - 0.5) < 0.05)
    }

    @Test("--until stops at that media time with exit 0; a missing file exits 1 with one line")
    func untilAndFailure() async throws {
        let until = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--untimed", "--until", "1.5", "--json",
        ])
        #expect(until.status == 0)
        let summary = try #require(try Self.events(until).last)
        #expect(abs((summary["time"]?.doubleValue ?? 0) - 1.5) < 0.05)
        let missing = try await CLIProcess.run(["play", "/nonexistent/clip.mp4", "--untimed"])
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1)
        #expect(missing.errorLines.first?.hasPrefix("playctl: error: /nonexistent/clip.mp4") == true)
    }

    @Test(
        "--pip --swap: PiP starts, the content source swaps to B, B plays to its end, the window closes",
        arguments: [false, true])
    func pictureInPicture(restore: Bool) async throws {
        var arguments = [
            "play", MediaFixtures.path("a.mp4"), "--pip", "--swap", MediaFixtures.path("b.mp4"), "--untimed", "--json",
        ]
        if restore { arguments.append("--restore") }
        let result = try await CLIProcess.run(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.events(result)
        let pip = Self.names(events).filter { $0.hasPrefix("pip.") && $0 != "pip.playbackState" }
        let expectedEnd =
            restore ? ["pip.restoreUserInterface", "pip.willStop", "pip.didStop"] : ["pip.willStop", "pip.didStop"]
        #expect(pip == ["pip.possible", "pip.willStart", "pip.didStart", "pip.contentSource"] + expectedEnd, "\(pip)")
        let swap = try #require(events.first { $0["event"]?.stringValue == "pip.contentSource" })
        #expect(swap["item"]?.stringValue == "b.mp4" && swap["mode"]?.stringValue == "source")
        #expect(abs((swap["host"]?.doubleValue ?? 0) - 2.0) < 0.05, "default swap time: min(2 s, half of A)")
        #expect((swap["time"]?.doubleValue ?? 9) < 0.05, "from the swap on, PiP lines report the new player's time")
        // The new player is logged from its first event: B loads (and shows its first frame) before the swap.
        let swapIndex = try #require(events.firstIndex { $0["event"]?.stringValue == "pip.contentSource" })
        let bReady = try #require(
            events.firstIndex { $0["event"]?.stringValue == "item.status" && $0["item"]?.stringValue == "b.mp4" })
        #expect(bReady < swapIndex)
        // Metric events come with the player events they derive from.
        let metrics = events.filter { $0["event"]?.stringValue?.hasPrefix("metric.") == true }
        #expect(
            metrics.contains { $0["event"]?.stringValue == "metric.firstFrame" && $0["item"]?.stringValue == "b.mp4" })
        #expect(metrics.contains { $0["event"]?.stringValue == "metric.summary" && $0["item"]?.stringValue == "b.mp4" })
        let states = events.filter { $0["event"]?.stringValue == "pip.playbackState" }
        #expect(Set(states.compactMap { $0["stateID"]?.intValue }).count == 1, "one playback state for the session")
        #expect(states.last?["contentDuration"]?.doubleValue == 4.0)
        let ended = try #require(events.firstIndex { $0["event"]?.stringValue == "item.didPlayToEnd" })
        #expect(events[ended]["item"]?.stringValue == "b.mp4")
        let summary = try #require(events.last)
        #expect(summary["event"]?.stringValue == "summary")
        #expect((summary["pipFramesRendered"]?.intValue ?? 0) >= 160)
    }

    @Test(
        "--pip --swap: the same trace on every run, in the order things happened (the swap, then B starts, then A pauses)"
    )
    func pictureInPictureTraceIsDeterministic() async throws {
        var traces: [[String]] = []
        for _ in 0..<3 {
            let result = try await CLIProcess.run([
                "play", MediaFixtures.path("a.mp4"), "--pip", "--swap", MediaFixtures.path("b.mp4"), "--untimed",
                "--json",
            ])
            #expect(result.status == 0, "\(result.standardError)")
            // Everything but wall-clock dates, session ids and measured latencies.
            traces.append(
                try Self.events(result).map { event in
                    let keep = ["event", "host", "time", "item", "status", "rate", "stateID", "elapsed", "mode"]
                    return keep.compactMap { key in
                        event[key].map { "\(key)=\($0.stringValue ?? $0.doubleValue.map { String($0) } ?? "\($0)")" }
                    }.joined(separator: " ")
                })
        }
        #expect(traces[1] == traces[0] && traces[2] == traces[0])
        let names = traces[0]
        let swap = try #require(names.firstIndex { $0.hasPrefix("event=pip.contentSource") })
        let bPlays = try #require(
            names[swap...].firstIndex { $0.hasPrefix("event=player.rate") && $0.contains("rate=1.0") })
        let aPauses = try #require(names.firstIndex { $0.hasPrefix("event=player.rate") && $0.contains("rate=0.0") })
        #expect(swap < bPlays && bPlays < aPauses, "\(names)")
    }

    @Test("--swap-mode item replaces the item on the same player, PiP stays active without stop/start")
    func swapByItem() async throws {
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--pip", "--swap", MediaFixtures.path("b.mp4"),
            "--swap-mode", "item", "--swap-at", "1", "--untimed", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let names = Self.names(try Self.events(result))
        let swap = try #require(names.firstIndex(of: "pip.contentSource"))
        let stop = try #require(names.firstIndex(of: "pip.willStop"))
        #expect(names.filter { $0 == "pip.willStart" }.count == 1)
        #expect(swap < stop)
        #expect(names.contains("player.currentItem"))
    }

    @Test("an item that fails in the PiP window: the system stops the session and --json says why")
    func pictureInPictureStoppedBySystem() async throws {
        let missing = "/nonexistent/playctl-missing.mp4"
        let result = try await CLIProcess.run([
            "play", MediaFixtures.path("a.mp4"), "--pip", "--swap", missing, "--swap-mode", "item", "--swap-at", "1",
            "--untimed", "--json",
        ])
        #expect(result.status == 1, "the item failed: \(result.standardError)")
        #expect(result.standardError.contains(missing))
        let events = try Self.events(result)
        let names = Self.names(events)
        let stopped = try #require(names.firstIndex(of: "pip.stoppedBySystem"), "\(names)")
        #expect(events[stopped]["reason"]?.stringValue == "itemFailed")
        let failed = try #require(
            events.firstIndex { $0["event"]?.stringValue == "item.status" && $0["status"]?.stringValue == "failed" })
        #expect(failed < stopped, "the item failed first")
        #expect(
            Array(names[stopped...].filter { $0.hasPrefix("pip.") }.prefix(3))
                == ["pip.stoppedBySystem", "pip.willStop", "pip.didStop"])
    }
}
