import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("playctl frames, against ffmpeg's framemd5")
struct FramesCLITests {
    @Test(arguments: MediaFixtures.videoClips)
    func md5LinesEqualTheReference(clip: String) async throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        let result = try await CLIProcess.run(["frames", MediaFixtures.path(clip), "--md5"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let lines = result.outputLines
        #expect(lines.count == reference.count, "frame count of \(clip)")
        for (index, (line, frame)) in zip(lines, reference).enumerated() {
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 2, "line \(index) of \(clip): '\(line)'")
            #expect(fields[1] == frame.md5, "md5 of frame \(index) of \(clip)")
            let time = try #require(ReferenceFrame.microseconds(fields[0]), "time of frame \(index): '\(fields[0])'")
            #expect(abs(time - frame.microseconds) <= 1, "time of frame \(index) of \(clip): \(fields[0])")
            #expect(fields[0].split(separator: ".").last?.count == 6, "six decimals: \(fields[0])")
        }
    }

    @Test(arguments: MediaFixtures.videoClips)
    func countEqualsTheReference(clip: String) async throws {
        let result = try await CLIProcess.run(["frames", MediaFixtures.path(clip), "--count"])
        #expect(result.status == 0)
        #expect(result.outputLines == [String(try MediaFixtures.referenceFrames(clip).count)])
    }

    @Test func jsonPrintsOneObjectPerFrame() async throws {
        let reference = try MediaFixtures.referenceFrames("c.webm")
        let result = try await CLIProcess.run(["frames", MediaFixtures.path("c.webm"), "--md5", "--json"])
        #expect(result.status == 0)
        let values = try JSONValue.parseLines(result.standardOutput)
        try #require(values.count == reference.count)
        for (value, frame) in zip(values, reference) {
            #expect(value.keys == ["time", "md5"])
            #expect(value["md5"]?.stringValue == frame.md5)
            let time = try #require(value["time"]?.doubleValue)
            #expect(abs(time - Double(frame.microseconds) / 1e6) <= 1e-6)
        }
        let count = try await CLIProcess.run(["frames", MediaFixtures.path("c.webm"), "--count", "--json"])
        #expect(try JSONValue(parsing: count.standardOutput) == ["frames": .int(reference.count)])
    }

    @Test func audioOnlyFileFailsWithOneLine() async throws {
        let path = MediaFixtures.path("tone.m4a")
        let result = try await CLIProcess.run(["frames", path, "--md5"])
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("playctl: error: \(path): ") == true)
    }
}
