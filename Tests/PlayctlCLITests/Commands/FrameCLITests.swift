import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("playctl frame, against ffmpeg's framemd5")
struct FrameCLITests {
    /// Times to ask for in `clip`, as the user would type them: exact frame times, times between frames, the
    /// start, a time before the first frame's and one past the end.
    static func times(in frames: [ReferenceFrame]) -> [String] {
        let middle = frames.count / 2
        let between = (frames[5].microseconds + frames[6].microseconds) / 2
        let last = frames[frames.count - 1].microseconds
        return [
            "0", frames[0].time, frames[1].time, frames[middle].time,
            SecondsText.format(microseconds: between),
            SecondsText.format(microseconds: frames[middle].microseconds - 1),
            frames[frames.count - 2].time, frames[frames.count - 1].time,
            SecondsText.format(microseconds: last + 5_000_000),
        ]
    }

    @Test(arguments: MediaFixtures.videoClips)
    func exactSeeksLandOnTheFrameOnScreen(clip: String) async throws {
        let reference = try MediaFixtures.referenceFrames(clip)
        for time in Self.times(in: reference) {
            let expected = reference[reference.indexOnScreen(atMicroseconds: ReferenceFrame.microseconds(time)!)]
            let result = try await CLIProcess.run(["frame", MediaFixtures.path(clip), "--at", time, "--md5"])
            #expect(result.status == 0, "\(clip) at \(time): \(result.standardError)")
            #expect(result.standardError == "")
            #expect(result.outputLines == [expected.line], "\(clip) at \(time)")
        }
    }

    @Test func theFrameBeforeAKeyframe() async throws {
        // a.mp4 has keyframes at 0 and 4 s only: the frame before 4 s needs the longest pre-roll.
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let before = try #require(reference.lastIndex { $0.microseconds < 4_000_000 })
        let result = try await CLIProcess.run([
            "frame", MediaFixtures.path("a.mp4"), "--at", reference[before].time, "--md5",
        ])
        #expect(result.outputLines == [reference[before].line])
    }

    @Test func keyframeSeeksLandOnTheKeyframeBefore() async throws {
        let reference = try MediaFixtures.referenceFrames("a.mp4")
        let at4 = try #require(reference.firstIndex { $0.microseconds == 4_000_000 })
        for (time, expected) in [("5.0", at4), ("4", at4), ("3.9", 0), ("0.5", 0)] {
            let result = try await CLIProcess.run([
                "frame", MediaFixtures.path("a.mp4"), "--at", time, "--md5", "--keyframe",
            ])
            #expect(result.status == 0)
            #expect(result.outputLines == [reference[expected].line], "keyframe seek to \(time)")
        }
    }

    /// The PNG's header says the display size, 8-bit RGBA; its pixels, decoded by ffmpeg, are ffmpeg's own frame on
    /// screen at that time (by the reference list's index), autorotated and converted with `-pix_fmt rgba`.
    @Test(arguments: [("rotated.mp4", "1", 180, 320), ("a.mp4", "2.5", 640, 360), ("c.webm", "1", 320, 240)])
    func pngIsFFmpegsFrame(clip: String, time: String, width: Int, height: Int) async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("frame.png").path
        let result = try await CLIProcess.run(["frame", MediaFixtures.path(clip), "--at", time, "-o", png])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "")
        #expect(result.standardError == "")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        try #require(bytes.count > 33)
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature")
        #expect(Array(bytes[12..<16]) == Array("IHDR".utf8))
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16) == width)
        #expect(bigEndian(20) == height)
        #expect(bytes[24] == 8 && bytes[25] == 6, "8-bit RGBA")
        #expect(Array(bytes.suffix(8).prefix(4)) == Array("IEND".utf8))

        let reference = try MediaFixtures.referenceFrames(clip)
        let index = reference.indexOnScreen(atMicroseconds: try #require(ReferenceFrame.microseconds(time)))
        let frame = try await PixelOracle.png(png)
        let expected = try await PixelOracle.picture(
            of: MediaFixtures.path(clip), filters: "select=eq(n\\,\(index))", width: width, height: height)
        #expect(frame == expected, "\(clip) at \(time), frame \(index): \(frame.difference(from: expected))")
    }

    @Test func printedTimesSelectTheirOwnFrame() async throws {
        // offset.ts frames sit at 1/90000 s ticks: 0.490911 is printed for a frame a third of a microsecond later.
        let reference = try MediaFixtures.referenceFrames("offset.ts")
        for index in [12, 13, 30] {
            let result = try await CLIProcess.run(
                ["frame", MediaFixtures.path("offset.ts"), "--at", reference[index].time, "--md5"])
            #expect(result.outputLines == [reference[index].line])
        }
    }
}
