import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

/// `playctl play --untimed` with scheduled seeks that tie with the item's end: the same trace every run, and every
/// seek counted has its `metric.seek` / `metric.seekDidComplete` pair.
@Suite("playctl play: ties in virtual time")
struct PlayTieCLITests {
    /// Fields that are wall-clock measurements or identities by design (`date` is the session's real start plus
    /// clock time, `sessionID` a UUID, the `elapsedTime`s, latencies and the summary's milliseconds real time).
    static let wallClockFields: Set<String> = [
        "date", "sessionID", "elapsedTime", "latency", "startupElapsedTime", "firstFrameMs", "startupMs",
        "seekLatencyP50Ms", "seekLatencyP95Ms",
    ]

    /// One run's lines without the wall-clock fields, and the parsed events.
    static func run(_ arguments: [String]) async throws -> (lines: [String], events: [JSONValue]) {
        let result = try await CLIProcess.run(["play"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let events = try result.outputLines.map { try JSONValue(parsing: $0) }
        let lines = events.map { event in
            JSONValue.object((event.objectValue ?? []).filter { !wallClockFields.contains($0.0) }).serialized()
        }
        return (lines, events)
    }

    @Test("--seek 3@1 --seek 0.5@4 on a.mp4: the second seek, at the end instant, is applied, the same 5 times")
    func seekAtTheEndInstant() async throws {
        let arguments = [MediaFixtures.path("a.mp4"), "--untimed", "--json", "--seek", "3@1", "--seek", "0.5@4"]
        let (first, events) = try await Self.run(arguments)
        let seeks = events.filter { $0["event"]?.stringValue == "metric.seek" }
        let completions = events.filter { $0["event"]?.stringValue == "metric.seekDidComplete" }
        #expect(seeks.compactMap { $0["id"]?.intValue } == [1, 2])
        #expect(completions.compactMap { $0["id"]?.intValue } == [1, 2])
        #expect(completions.allSatisfy { $0["finished"]?.boolValue == true })
        #expect(completions.last?["landedTime"]?.doubleValue == 0.5)
        let summary = try #require(events.first { $0["event"]?.stringValue == "metric.summary" })
        #expect(summary["seekCount"]?.intValue == seeks.count)
        // 1 s at 0-1, 3 s from 3 to the end, then 5.5 s from 0.5: the end at clock 9.5.
        let end = try #require(events.first { $0["event"]?.stringValue == "item.didPlayToEnd" })
        #expect(end["host"]?.doubleValue == 9.5)
        #expect(events.filter { $0["event"]?.stringValue == "item.didPlayToEnd" }.count == 1)
        for _ in 0..<4 {
            let (again, _) = try await Self.run(arguments)
            #expect(again == first)
        }
    }

    @Test("an initial seek lands before the first frame, and --until at the end instant ends the run there")
    func initialSeekAndUntil() async throws {
        let arguments = [MediaFixtures.path("a.mp4"), "--untimed", "--json", "--seek", "2", "--until", "4"]
        let (first, events) = try await Self.run(arguments)
        let names = events.compactMap { $0["event"]?.stringValue }
        let jumped = try #require(names.firstIndex(of: "item.timeJumped"))
        let firstFrame = try #require(names.firstIndex(of: "metric.firstFrame"))
        #expect(jumped < firstFrame, "\(names)")
        #expect(events[firstFrame]["time"]?.doubleValue == 2)
        #expect(!names.contains("item.didPlayToEnd"), "--until 4 is the end instant (2 s + 4 s): it runs first")
        for _ in 0..<4 {
            let (again, _) = try await Self.run(arguments)
            #expect(again == first)
        }
    }
}
