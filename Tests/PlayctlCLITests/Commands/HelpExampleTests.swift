import CommandLineKit
import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlBench
@testable import PlayctlCLI

/// Every example of `probe`, `frames`, `frame` and `playctl-bench run` in `--help` runs as written (its file names
/// made paths: `clip.mp4` a copy of Media/a.mp4, `a.mp4` and `b.mp4` the clips, outputs in a temporary folder), and
/// what its description promises holds. (`play`'s, judged on the real clock, in ``PlayHelpExampleTests``; `feed`,
/// `poster`, `soak` and `run --feed` run theirs in their own suites.)
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
        let needsServer = example.contains("http://") || example.contains("--network") || example.contains("--abr")
        if needsServer, TestHTTPServer.skipReason != nil {
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
            if example.contains("master.m3u8") {
                // The variants of an HLS ladder and the streams of the one it starts with, as JSON.
                let report = try JSONValue(parsing: result.standardOutput)
                #expect(report["format"]?.stringValue == "hls")
                #expect(report["variants"]?.arrayValue?.count == 4, "\(result.standardOutput)")
                #expect(report["tracks"]?.arrayValue?.isEmpty == false)
            } else if example.hasSuffix("--json") {
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
            } else if example.contains("--abr") {
                // The first frame against the faster tool, the bytes, and (on a shaped link) the 12 s ABR run.
                let text = result.standardOutput
                #expect(text.contains("playctl / min(ffmpeg, mpv) = playctl / "), "\(text)")
                #expect(text.contains("Bytes on the wire of a full play"), "\(text)")
                if TestHTTPServer.isShaped {
                    #expect(text.contains("12 s on the real clock, the link 8 -> 1.5 Mbit/s at 2 s -> 8 Mbit/s at 6 s"))
                    #expect(result.outputLines.contains { $0.hasPrefix("  playctl ") && $0.contains("Mbit/s") })
                }
            } else if example.contains("--scrub") {
                // The drag's figures against the plain seek, and both landed exactly where the drag ends.
                let text = result.standardOutput
                #expect(text.contains("frames shown while dragging"), "\(text)")
                #expect(text.contains("drag's landing / plain seek"), "\(text)")
                #expect(text.contains("in every run: yes"), "\(text)")
            } else {
                #expect(result.outputLines.contains { $0.contains("playctl / ffmpeg") }, "\(example)")
            }
        }
    }
}
