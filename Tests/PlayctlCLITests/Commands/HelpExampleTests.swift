import CommandLineKit
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench
@testable import PlayctlCLI

/// Every example of `probe`, `frames`, `frame`, `play` and `playctl-bench run` in `--help` runs as written (its file names made
/// paths: `clip.mp4` a copy of Media/a.mp4, `a.mp4` and `b.mp4` the clips, outputs in a temporary folder), and what
/// its description promises holds. (`feed`, `poster`, `soak` and `run --feed` run theirs in their own suites.)
@Suite("Help examples run as written")
struct HelpExampleTests {
    /// A folder with `clip.mp4` in it, and `film.mkv`, `film.mp4` and `film.vtt` (the clips with several audio
    /// languages and subtitles, and a sidecar), for the examples to run in.
    static func folder() throws -> URL {
        let directory = try TemporaryDirectory.make()
        for (source, name) in [
            (MediaFixtures.path("a.mp4"), "clip.mp4"), (TrackClips.path("tracks.mkv"), "film.mkv"),
            (TrackClips.path("tracks.mp4"), "film.mp4"), (TrackClips.path("tracks.vtt"), "film.vtt"),
        ] {
            try FileManager.default.copyItem(atPath: source, toPath: directory.appendingPathComponent(name).path)
        }
        return directory
    }

    /// The example's arguments (without `playctl` or `playctl-bench`), with its file names made paths.
    static func arguments(_ example: String, in directory: URL) -> [String] {
        example.split(separator: " ").dropFirst().map(String.init).map { word in
            if word == "a.mp4" || word == "b.mp4" { return MediaFixtures.path(word) }
            if !word.hasPrefix("-"), !word.contains("/"), word.contains("."), Double(word) == nil {
                return directory.appendingPathComponent(word).path
            }
            return word
        }
    }

    static func examples(of command: any ParsableCommand.Type) -> [String] {
        command.configuration.examples.map(\.commandLine)
    }

    /// Runs `example`; nil (and a warning) for one that needs the test HTTP server when it does not run.
    static func run(_ example: String, in directory: URL) async throws -> CLIProcess.Result? {
        if example.contains("http://") || example.contains("--network"), TestHTTPServer.skipReason != nil {
            return nil
        }
        let tool = String(example.prefix { $0 != " " })
        return try await CLIProcess.run(Self.arguments(example, in: directory), tool: tool, timeout: 600)
    }

    @Test("probe: the clip described, as text and JSON")
    func probe() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        for example in Self.examples(of: ProbeCommand.self) {
            guard let result = try await Self.run(example, in: directory) else { continue }
            #expect(result.status == 0, "\(example): \(result.standardError)")
            if example.hasSuffix("--json") {
                #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [String: Any])
            } else if example.contains("film.mkv") {
                // The audio and subtitle tracks with their languages and flags.
                let tracks = result.outputLines.filter { $0.hasPrefix("Track #") }
                #expect(tracks.count == 5, "\(result.standardOutput)")
                #expect(tracks.filter { $0.contains("language fra") }.count == 2)
                #expect(tracks.contains { $0.contains("subtitle ass") && $0.hasSuffix("forced") })
            } else {
                #expect(result.outputLines.contains { $0.hasPrefix("Format:") }, "\(example)")
            }
        }
    }

    @Test("frames and frame: ffmpeg's md5s, the frame at 2.5 s, a PNG")
    func frames() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let examples = Self.examples(of: FramesCommand.self) + Self.examples(of: FrameCommand.self)
        #expect(examples.count == 4)
        for example in examples {
            let result = try #require(try await Self.run(example, in: directory))
            #expect(result.status == 0, "\(example): \(result.standardError)")
            if example.contains("frames clip.mp4 --md5") {
                #expect(result.outputLines.count == reference.count)
            } else if example.contains("--count") {
                #expect(result.standardOutput.contains("\(reference.count)"))
            } else if example.contains("--at 2.5 --md5") {
                let expected = reference[reference.indexOnScreen(atMicroseconds: 2_500_000)]
                #expect(result.outputLines == [expected.line], "\(example)")
            } else {
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("ten.png").path))
            }
        }
    }

    /// Readable lines of `play` as (run time, event name, rest).
    typealias Line = (time: Double, name: String, rest: String)

    static func lines(_ output: String) -> [Line] {
        output.split(separator: "\n").compactMap { line -> Line? in
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count >= 2, let time = Double(words[0]) else { return nil }
            return (time, String(words[1]), words.count > 2 ? String(words[2]) : "")
        }
    }

    @Test("play: each example does what its description says")
    func play() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let examples = Self.examples(of: PlayCommand.self)
        #expect(examples.count == 8)
        for example in examples {
            let result = try #require(try await Self.run(example, in: directory))
            #expect(result.status == 0, "\(example): \(result.standardError)")
            let lines = Self.lines(result.standardOutput)
            if example.contains("--sub-file") {
                // Show the cues of film.vtt over film.mp4, as item.cue events in JSON Lines.
                let cues = try result.outputLines.map { try JSONValue(parsing: $0) }.filter {
                    $0["event"]?.stringValue == "item.cue"
                }
                #expect(cues.map { $0["text"]?.stringValue } == TrackClips.sidecarCues.map(\.text))
                #expect(cues.map { $0["start"]?.doubleValue } == TrackClips.sidecarCues.map(\.start))
                #expect(cues.map { $0["host"]?.doubleValue } == TrackClips.sidecarCues.map(\.start), "as it shows")
            } else if example.contains("--audio-lang fra --sub-lang fra") {
                // Play the French audio of film.mkv with its French subtitles, printing each cue as it shows.
                let selections = lines.filter { (line: Line) in line.name == "item.mediaSelection" }.map(\.rest)
                #expect(selections.count == 2 && selections.allSatisfy { $0.contains("option=\"Français\"") })
                let cues = lines.filter { (line: Line) in line.name == "item.cue" }
                let expected = TrackClips.frenchCues.map { $0.shifted(by: TrackClips.mediaOffset("film.mkv")) }
                #expect(cues.count == expected.count, "\(result.standardOutput)")
                for (cue, french) in zip(cues, expected) {
                    #expect(abs(cue.time - french.start) < 0.000_5, "\(cue)")
                    #expect(cue.rest.contains("text=\"\(french.text.replacingOccurrences(of: "\n", with: "\\n"))\""))
                }
            } else if example.contains("--audio pulse") {
                // Play 3 s of clip.mp4 aloud through PulseAudio, the video on its clock; the summary gives avsync.
                // (scripts/test.sh runs the suite with a PulseAudio daemon: PULSE_SERVER.)
                try #require(PulseServer.address != nil, Comment(rawValue: PulseServer.missingReason))
                let objects = try result.outputLines.map { try JSONValue(parsing: $0) }
                let output = objects.first { $0["event"]?.stringValue == "player.audioOutput" }
                #expect(output?["output"]?.stringValue == "pulse", "\(result.standardOutput)")
                let summary = try #require(objects.last { $0["event"]?.stringValue == "summary" })
                let avsync = try #require(summary["avsyncMs"]?.doubleValue, "\(summary)")
                #expect(abs(avsync) < 45 && (summary["time"]?.doubleValue ?? 0) > 1.5, "\(summary)")
            } else if example.contains("--untimed --json") {
                // Play clip.mp4 at full speed and print its events.
                #expect(result.outputLines.contains { $0.contains("\"event\":\"item.didPlayToEnd\"") })
            } else if example.contains("--seek 3 --seek 1@2 --until 4") {
                // Seek to 3 s at once, to 1 s two seconds later, and stop four seconds after the start (at 3 s).
                let seeks = lines.filter { (line: Line) in line.name == "metric.seek" }
                // Real time: the timeline starts when playback does (the rate set to 1, after the first seek); the
                // second seek comes 2 s later.
                try #require(seeks.count == 2, "\(result.standardOutput)")
                let start = try #require(
                    lines.first { (line: Line) in line.name == "player.rate" && line.rest.contains("rate=1.0") }
                ).time
                #expect(
                    seeks[0].time <= start && (1.99...2.3).contains(seeks[1].time - start), "\(seeks), start \(start)")
                #expect(seeks.first?.rest.contains("requestedTime=3.0") == true)
                #expect(seeks.last?.rest.contains("requestedTime=1.0") == true)
                let last = try #require(lines.last { (line: Line) in line.name == "metric.summary" })
                #expect((3.99...4.3).contains(last.time - start), "stopped 4 s after the start: \(last.time)")
                // At 3 s of media when nothing stalled and the seeks landed at once (on a loaded machine a landing
                // may take half a second, the media time waiting meanwhile: never past 3 s).
                let media = Double(last.rest.dropFirst("clip.mp4@".count).prefix { $0 != " " }) ?? -1
                #expect((2.3...3.05).contains(media), "\(last.rest)")
                #expect(!lines.contains { (line: Line) in line.name == "item.didPlayToEnd" })
            } else if example.contains("--scrub") {
                // (The clip then plays from 5.5 s to its end, which ends the run.)
                // Drag from 0.5 s to 5.5 s over one second, half a second in: 60 positions, keyframe pictures on the
                // way (one seek in flight), the exact frame of 5.5 s at the end.
                let objects = try result.outputLines.map { try JSONValue(parsing: $0) }
                let scrub = try #require(
                    objects.first { $0["event"]?.stringValue == "metric.scrub" }, "\(result.standardOutput)")
                #expect(scrub["positions"]?.intValue == 60, "\(scrub)")
                let shown = scrub["framesShown"]?.intValue ?? 0
                #expect(shown >= 1 && shown <= (scrub["keyframeSeeks"]?.intValue ?? 0), "\(scrub)")
                #expect(scrub["landedTime"]?.doubleValue == 5.5, "\(scrub)")
            } else if example.contains("--frames 1") {
                // Open clip.mp4, show its first frame and exit.
                #expect(
                    result.standardOutput.contains("1 frames rendered")
                        || result.standardOutput.contains("framesRendered=1"),
                    "\(result.standardOutput)")
            } else {
                // Start picture in picture, swap to b.mp4 after 3 seconds, then restore.
                #expect(lines.contains { (line: Line) in line.name == "pip.didStart" })
                let swap = try #require(
                    lines.first { (line: Line) in line.name == "pip.contentSource" }, "\(result.standardOutput)")
                #expect(abs(swap.time - 3) < 0.05 && swap.rest.contains("b.mp4"), "\(swap.rest)")
                #expect(
                    lines.contains { (line: Line) in
                        line.name == "pip.restoreUserInterface" || line.name == "pip.didStop"
                    })
            }
        }
    }

    @Test("playctl-bench run: a table and the same as JSON on clip.mp4; remote playback inside netns")
    func bench() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The --feed examples (a 20-minute benchmark on a generated feed) run in FeedBenchTests, on the mini feed
        // with small counts.
        for example in Self.examples(of: BenchCommand.self) where !example.contains("--feed") {
            guard let result = try await Self.run(example, in: directory) else { continue }
            #expect(result.status == 0, "\(example): \(result.standardError)")
            if example.hasSuffix("--json") || example.contains("--network") && example.hasSuffix("--json") {
                #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [String: Any])
            } else {
                #expect(result.outputLines.contains { $0.contains("playctl / ffmpeg") }, "\(example)")
            }
        }
    }
}
