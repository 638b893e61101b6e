import Foundation
import PlaybackTesting
import Testing

/// The C, SDL2 and Python examples, built and run as their READMEs say against an installed copy of this build's
/// library (`scripts/examples.sh`); the Swift package example runs after the suite (`scripts/test.sh`), since it
/// builds playctl again.
@Suite struct ExamplesTests {
    @Test func cMinimalAndPythonCtypesRun() async throws {
        let result = try await Embedding.runScript(
            "scripts/examples.sh",
            ["--only", "c", "--only", "python", "--no-build", "--bin-path", Embedding.binPath])
        #expect(result.succeeded, "\(result.outputText)\(result.errorText)")
        let output = result.outputText
        #expect(output.contains("c-minimal: ") && output.contains("seek landed at 4.000"), "\(output)")
        #expect(output.contains("python-ctypes: ") && output.contains("frames shown: ok"), "\(output)")
        // The feed example: ten items on the manual clock, its summary printed.
        #expect(output.contains("{\"event\":\"feed.summary\""), "\(output)")
        #expect(output.contains("playctl_feed: 10 items, ") && output.contains(" 0 stalls: ok"), "\(output)")
        // Its 0.3 part: entries with renditions and a size over the cellular cap, tapped.
        #expect(
            output.contains("playctl_feed entries: rendition (400000, 640, 360), capped items 1, tapped 1"),
            "\(output)")
        // The same trace from C and from Python: the manual clock makes it deterministic.
        let trace = { (tool: String) -> [Substring] in
            let lines = output.split(separator: "\n")
            guard let start = lines.firstIndex(of: Substring("== \(tool)")) else { return [] }
            return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("\(tool):") && !$0.hasPrefix("==") })
        }
        #expect(!trace("c-minimal").isEmpty)
        #expect(trace("c-minimal") == trace("python-ctypes"))
    }

    /// The SDL2 example in a private Xvfb (scripts/examples.sh starts it, and a PulseAudio daemon with a null sink
    /// when one is installed, and stops them): screenshots of its window and of its PiP window show FFmpeg's
    /// frames at the times it reports, not the frames after them; space, the arrows and p work. Without Xvfb,
    /// xwd, SDL2 or ffmpeg the script fails, and so does this test.
    @Test func cSDL2ShowsTheFrameInAnXWindow() async throws {
        let result = try await Embedding.runScript(
            "scripts/examples.sh", ["--only", "sdl", "--no-build", "--bin-path", Embedding.binPath])
        #expect(result.succeeded, "\(result.outputText)\(result.errorText)")
        let output = result.outputText
        #expect(output.contains("c-sdl2: window: a.mp4 at 1.000 in 480x270"), "\(output)")
        #expect(output.contains("c-sdl2: PiP window: a.mp4 at 2.000"), "\(output)")
        #expect(output.contains("keys, PiP and screenshots: ok"), "\(output)\(result.errorText)")
    }
}
