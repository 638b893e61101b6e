import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl report` and `--timeline`: a run's JSON Lines drawn as SVG that a real renderer (rsvg-convert) reads,
/// one band per status change and one arrow per seek, the same bytes for the same input; the demo's picture in
/// docs/ is what the demo's run draws today.
@Suite("playctl report")
struct ReportCLITests {
    /// `rsvg-convert` (librsvg2-bin) renders `svg` to PNG; the PNG's size in bytes.
    static func rendered(_ svg: String) throws -> Int {
        let rsvg = try #require(
            ProcessRunner.findExecutable("rsvg-convert"), "rsvg-convert (librsvg2-bin, scripts/setup.sh) renders SVG")
        let png = svg + ".png"
        let result = try ProcessRunner.run(rsvg, [svg, "-o", png], standardError: .capture, timeout: 60)
        try #require(result.succeeded, "rsvg-convert: \(result.errorText)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        return bytes.count
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    static func events(_ jsonl: String) throws -> [JSONValue] {
        try jsonl.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    @Test("the help example on a recorded run with seeks: a band per status change, an arrow per seek, same bytes")
    func example() async throws {
        let directory = try HelpExampleTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        let run = try await CLIProcess.run(["play", clip, "--untimed", "--seek", "3", "--seek", "1@2", "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        try run.standardOutput.write(
            to: directory.appendingPathComponent("run.jsonl"), atomically: true, encoding: .utf8)
        let examples = HelpExampleTests.examples(of: ReportCommand.self)
        #expect(examples.count == 1)
        var pictures: [String] = []
        for _ in 0..<2 {
            let result = try #require(try await HelpExampleTests.run(examples[0], in: directory))
            #expect(result.status == 0, "\(result.standardError)")
            pictures.append(try String(contentsOf: directory.appendingPathComponent("run.svg"), encoding: .utf8))
        }
        #expect(pictures[0] == pictures[1], "the same input, the same bytes")
        let svg = pictures[0]
        let events = try Self.events(run.standardOutput)
        let statuses = events.filter { $0["event"]?.stringValue == "player.timeControlStatus" }.count
        let seeks = events.filter { $0["event"]?.stringValue == "metric.seek" }.count
        #expect(statuses >= 1 && seeks == 2)
        #expect(Self.count("<rect class=\"status ", in: svg) == statuses)
        #expect(Self.count("<line class=\"seek\"", in: svg) == seeks)
        #expect(svg.contains(">run time (s)</text>") && svg.contains(">media time (s)</text>"))
        #expect(try Self.rendered(directory.appendingPathComponent("run.svg").path) > 5_000)
    }

    @Test("play --timeline draws what report draws from the same run's --json; docs/demo-run.svg is the demo's run")
    func timelineOption() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("demo.svg").path
        let (a, b) = (MediaFixtures.path("a.mp4"), MediaFixtures.path("b.mp4"))
        let drawn = try await CLIProcess.run(["play", a, "--pip", "--swap", b, "--timeline", svg])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        let recorded = try await CLIProcess.run(["play", a, "--pip", "--swap", b, "--json"])
        let events = try Self.events(recorded.standardOutput).filter { $0["event"]?.stringValue != "summary" }
        let fromReport = TimelineSVG.render(RunTimeline(events: events), title: "playctl play a.mp4")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture == fromReport)
        // The PiP steps and the swap are marked.
        for label in ["didStart", "swap b.mp4", "didStop"] { #expect(picture.contains(">\(label)</text>"), "\(label)") }
        #expect(try Self.rendered(svg) > 5_000)
        // The demo's run (scripts/demo.sh plays a.mp4 in PiP, swapping to b.mp4) under the PiP scenario's manual
        // clock: the committed picture is today's, byte for byte.
        let committed = try String(contentsOfFile: Repository.path("docs/demo-run.svg"), encoding: .utf8)
        #expect(
            committed == picture,
            "re-draw docs/demo-run.svg: playctl play Media/a.mp4 --pip --swap Media/b.mp4 --timeline docs/demo-run.svg")
    }

    @Test("feed --timeline: one row per item shown, each with its first frame")
    func feedTimeline() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("feed.svg").path
        let result = try await CLIProcess.run([
            "feed", Repository.path("Media"), "--swipes", "3", "--dwell", "0.5", "--timeline", svg, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let events = try Self.events(result.standardOutput)
        let visible = events.filter { $0["event"]?.stringValue == "feed.visible" }
        let framed = Set(events.filter { $0["event"]?.stringValue == "feed.firstFrame" }.map { $0["index"]?.intValue })
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(visible.count == 4)
        #expect(Self.count("<rect class=\"feed-item\"", in: picture) == visible.count)
        // A first frame drawn on each row whose item had one (in real time, a loaded machine may miss one).
        let expected = visible.filter { framed.contains($0["index"]?.intValue) }.count
        #expect(Self.count("<circle class=\"first-frame\"", in: picture) == expected)
        #expect(try Self.rendered(svg) > 3_000)
    }

    @Test("a file with no event lines: one error line naming it, status 1")
    func noEvents() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("empty.jsonl")
        try "not json\n".write(to: input, atomically: true, encoding: .utf8)
        let result = try await CLIProcess.run([
            "report", input.path, "-o", directory.appendingPathComponent("x.svg").path,
        ])
        #expect(result.status == 1 && result.standardError.contains("empty.jsonl"), "\(result.standardError)")
    }
}
