import CommandLineKit
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// Every example of `playctl play --help` runs as written (see ``HelpExampleTests``) and does what its description
/// says. They play on the real clock, as written, and are judged on it (cues at their times, sound within 45 ms of
/// the picture, a seek two seconds after the start): in the isolated realtime group of scripts/test.sh.
@Suite("Help examples of play run as written, on the real clock")
struct PlayHelpExampleTests {
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
        let directory = try HelpExampleTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let examples = HelpExampleTests.examples(of: PlayCommand.self)
        #expect(examples.count == 9)
        for example in examples {
            // nil: an example on the test HTTP server (the HLS ladder) outside scripts/netns.sh, with a warning.
            guard let result = try await HelpExampleTests.run(example, in: directory) else { continue }
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
            } else if example.contains("--max-bitrate 1200000") {
                // Play an HLS ladder at full speed in variants of 1.2 Mbit/s at most; print each item.variantSwitch.
                let switches = try result.outputLines.map { try JSONValue(parsing: $0) }.filter {
                    $0["event"]?.stringValue == "item.variantSwitch"
                }
                #expect(switches.count == 1, "\(switches)")
                #expect(switches.allSatisfy { ($0["to"]?["bandwidth"]?.intValue ?? .max) <= 1_200_000 })
                #expect(result.outputLines.contains { $0.contains("\"event\":\"item.didPlayToEnd\"") })
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
}
