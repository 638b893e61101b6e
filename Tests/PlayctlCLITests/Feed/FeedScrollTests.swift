import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl feed`'s scroll: `--script FILE` read and checked, and the generated one (`--swipes`, `--dwell`,
/// `--seed`) reproducible, bounded, with flings.
@Suite("playctl feed: scrolls")
struct FeedScrollTests {
    typealias Step = FeedScroll.Step

    static func script(_ text: String, entries: Int = 6) throws -> FeedScroll {
        try FeedScroll.script(path: "s.json", json: JSONValue(parsing: text), entries: entries)
    }

    static func scriptError(_ text: String, entries: Int = 6) throws -> FeedInputError? {
        let json = try JSONValue(parsing: text)
        do throws(FeedInputError) {
            _ = try FeedScroll.script(path: "s.json", json: json, entries: entries)
            return nil
        } catch {
            return error
        }
    }

    @Test("a script: steps in order, speed optional, an end step or three seconds on the last item")
    func script() throws {
        let scroll = try Self.script(
            #"[{"at": 0, "index": 0}, {"at": 1, "index": 4, "speed": 15}, {"at": 1.3, "index": 4}, {"at": 2.5}]"#)
        #expect(
            scroll.steps == [
                Step(at: 0, index: 0, speed: 0), Step(at: 1, index: 4, speed: 15), Step(at: 1.3, index: 4, speed: 0),
            ])
        #expect(scroll.end == 2.5)
        #expect(scroll.swipes == 1, "the step on the same item is the fling settling, not a swipe")
        #expect(scroll.flings(above: 4) == 1)
        let tap = try Self.script(#"[{"at": 0, "index": 1}, {"at": 2, "index": 1, "tap": true}, {"at": 4}]"#)
        #expect(tap.steps == [Step(at: 0, index: 1, speed: 0), Step(at: 2, index: 1, speed: 0, tap: true)])
        #expect(tap.swipes == 0, "a tap on the item on screen is no swipe")
        let open = try Self.script(#"[{"at": 0.5, "index": 2}, {"at": 0.5, "index": 1}]"#)
        #expect(open.end == 3.5 && open.swipes == 1, "equal times are in order")
        #expect(FileManager.default.fileExists(atPath: MediaFixtures.path("feed-script.json")))
        let example = try FeedScroll.script(MediaFixtures.path("feed-script.json"), entries: 12)
        #expect(example.swipes == 4 && example.flings(above: 4) == 1 && example.end == 3.6)
    }

    @Test("a script's mistakes: named, with where and why")
    func scriptErrors() throws {
        let cases: [(String, FeedInputError)] = [
            (
                #"{"steps": []}"#,
                .invalid(file: "s.json", path: "", reason: #"expected an array of steps {"at": seconds, "index": i}"#)
            ),
            ("[]", .empty(file: "s.json", reason: "no steps")),
            ("[3]", .invalid(file: "s.json", path: "[0]", reason: "expected an object")),
            (#"[{"index": 0}]"#, .invalid(file: "s.json", path: "[0]", reason: "missing \"at\"")),
            (
                #"[{"at": -1, "index": 0}]"#,
                .invalid(file: "s.json", path: "[0].at", reason: "expected a number, 0 or more")
            ),
            (
                #"[{"at": 0, "index": 6}]"#,
                .invalid(file: "s.json", path: "[0].index", reason: "6 is out of range: the feed has 6 entries")
            ),
            (
                #"[{"at": 0, "index": 0, "tap": 1}]"#,
                .invalid(file: "s.json", path: "[0].tap", reason: "expected true or false")
            ),
            (
                #"[{"at": 0, "index": 1.5}]"#,
                .invalid(file: "s.json", path: "[0].index", reason: "expected a whole number, 0 or more")
            ),
            (
                #"[{"at": 0, "index": -1}]"#,
                .invalid(file: "s.json", path: "[0].index", reason: "expected a whole number, 0 or more")
            ),
            (
                #"[{"at": 2, "index": 0}, {"at": 1, "index": 1}]"#,
                .invalid(file: "s.json", path: "[1].at", reason: "1 is earlier than the step before it (2)")
            ),
            (
                #"[{"at": 0, "index": 0}, {"at": 1}, {"at": 2, "index": 1}]"#,
                .invalid(
                    file: "s.json", path: "[1]",
                    reason: "missing \"index\" (only the last step may leave it out, to say when the run ends)")
            ),
            (
                #"[{"at": 1}]"#,
                .invalid(
                    file: "s.json", path: "[0]",
                    reason: "missing \"index\" (only the last step may leave it out, to say when the run ends)")
            ),
            (
                #"[{"at": 0, "index": 0, "speed": "fast"}]"#,
                .invalid(file: "s.json", path: "[0].speed", reason: "expected a number, 0 or more")
            ),
        ]
        for (text, expected) in cases {
            #expect(try Self.scriptError(text) == expected, "\(text)")
        }
        #expect(
            try Self.scriptError(#"[{"at": 0, "index": 1}]"#, entries: 1)?.description
                == "s.json: [0].index: 1 is out of range: the feed has 1 entry")
        #expect(throws: FeedInputError.unreadable(file: "/nonexistent.json", reason: "No such file or directory")) {
            try FeedScroll.script("/nonexistent.json", entries: 3)
        }
        #expect(throws: FeedInputError.unreadable(file: MediaFixtures.directory.path, reason: "Is a directory")) {
            try FeedScroll.script(MediaFixtures.directory.path, entries: 3)
        }
    }

    @Test("generated: the same seed gives the same scroll, another seed another")
    func reproducible() {
        let one = FeedScroll.generated(entries: 200, swipes: 50, dwell: 3, seed: 1)
        #expect(one == FeedScroll.generated(entries: 200, swipes: 50, dwell: 3, seed: 1))
        #expect(one != FeedScroll.generated(entries: 200, swipes: 50, dwell: 3, seed: 2))
        #expect(one.swipes == 50)
        #expect(one.steps.first == Step(at: 0, index: 0, speed: 0))
    }

    @Test("generated: forward only, one item a swipe or a fling of 3 to 8 settling on its item; dwells bounded")
    func shape() {
        let dwell = 1.5
        let scroll = FeedScroll.generated(entries: 10_000, swipes: 1000, dwell: dwell, seed: 42)
        #expect(scroll.swipes == 1000)
        var flings = 0
        var dwells: [Double] = []
        var position = 1
        var settled = 0.0
        while position < scroll.steps.count {
            let step = scroll.steps[position]
            let before = scroll.steps[position - 1]
            dwells.append(step.at - settled)
            let jump = step.index - before.index
            if step.speed > 4 {
                flings += 1
                #expect((3...8).contains(jump) && (10...20).contains(step.speed), "\(step)")
                let settle = scroll.steps[position + 1]
                #expect(settle.index == step.index && settle.speed == 0)
                #expect(abs(settle.at - step.at - Double(jump) / step.speed) < 1e-9)
                settled = settle.at
                position += 2
            } else {
                #expect(jump == 1 && step.speed == FeedScroll.swipeSpeed, "\(step)")
                settled = step.at
                position += 1
            }
        }
        dwells.append(scroll.end - settled)
        #expect((70...130).contains(flings), "about one swipe in ten is a fling: \(flings)")
        #expect(dwells.allSatisfy { $0 >= 0.2 - 1e-9 && $0 <= 5 * dwell + 1e-9 })
        let sorted = dwells.sorted()
        #expect(
            abs(sorted[sorted.count / 2] - dwell) < 0.15, "the median dwell is --dwell: \(sorted[sorted.count / 2])")
        #expect(sorted.first! < dwell / 1.5 && sorted.last! > dwell * 2, "spread around it")
        var random = SeededGenerator(seed: 3)
        let clamped = (0..<500).map { _ in FeedScroll.drawDwell(around: 0.2, &random) }
        #expect(clamped.allSatisfy { $0 >= 0.2 && $0 <= 1.0 })
    }

    @Test("generated: the scroll stops on the last item, never wraps")
    func stopsAtTheEnd() {
        for seed in UInt64(0)..<50 {
            let scroll = FeedScroll.generated(entries: 6, swipes: 20, dwell: 1, seed: seed)
            #expect(scroll.steps.last?.index == 5, "seed \(seed)")
            #expect(zip(scroll.steps, scroll.steps.dropFirst()).allSatisfy { $0.index <= $1.index && $0.at <= $1.at })
            #expect(scroll.swipes <= 5 && scroll.end > scroll.steps.last!.at)
        }
        let one = FeedScroll.generated(entries: 1, swipes: 20, dwell: 1, seed: 1)
        #expect(one.steps.count == 1 && one.swipes == 0)
        #expect(FeedScroll.generated(entries: 6, swipes: 0, dwell: 1, seed: 1).steps.count == 1)
    }
}
