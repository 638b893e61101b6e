import Foundation
import PlaybackTesting
import PlayctlOutput
import Testing

@testable import PlayctlCLI

/// `playctl thumbnails`: its help examples run as written in a folder holding `clip.mp4` (Media/a.mp4), and what
/// each promises holds: the sprite sheet's size and format, a WebVTT track a strict parser accepts whose cues point
/// into the sprite, JSON lines.
@Suite("playctl thumbnails")
struct ThumbnailsCLITests {
    /// The width and height ffprobe reads from a picture file, and its codec.
    static func probe(_ path: String) throws -> (width: Int, height: Int, codec: String) {
        let ffprobe = try #require(ProcessRunner.findExecutable("ffprobe"))
        let result = try ProcessRunner.run(
            ffprobe,
            ["-v", "error", "-show_entries", "stream=width,height,codec_name", "-of", "csv=p=0", path],
            standardOutput: .capture, timeout: 60)
        let fields = result.outputText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        try #require(fields.count == 3, "ffprobe: \(result.outputText)")
        return (Int(fields[1]) ?? 0, Int(fields[2]) ?? 0, String(fields[0]))
    }

    @Test("every help example: the sprite and track it promises")
    func examples() async throws {
        let directory = try HelpExampleTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let examples = HelpExampleTests.examples(of: ThumbnailsCommand.self)
        #expect(examples.count == 2)
        for example in examples {
            let result = try #require(try await HelpExampleTests.run(example, in: directory))
            #expect(result.status == 0, "\(example): \(result.standardError)")
            let words = example.split(separator: " ").map(String.init)
            let value = { (option: String) in words.firstIndex(of: option).map { words[$0 + 1] } ?? "" }
            let (every, size, columns) = (Double(value("--every"))!, value("--size"), Int(value("--columns")) ?? 0)
            let (width, height) = (Int(size.split(separator: "x")[0])!, Int(size.split(separator: "x")[1])!)
            let tiles = Int((6 / every).rounded(.up))  // clip.mp4 lasts 6 s
            let perRow = columns > 0 ? columns : min(10, tiles)
            let rows = (tiles + perRow - 1) / perRow
            let sprite = try Self.probe(directory.appendingPathComponent(value("--sprite")).path)
            #expect(sprite.width == perRow * width && sprite.height == rows * height, "\(example): \(sprite)")
            #expect(sprite.codec == (value("--sprite").hasSuffix(".png") ? "png" : "mjpeg"))
            let vtt = try String(contentsOf: directory.appendingPathComponent(value("--vtt")), encoding: .utf8)
            let cues = try WebVTTParser.parse(vtt)
            #expect(cues.count == tiles)
            #expect(cues.first?.start == 0 && cues.last?.end == 6)
            for (index, cue) in cues.enumerated() {
                #expect(abs(cue.start - Double(index) * every) < 0.000_5)
                let (x, y) = (index % perRow * width, index / perRow * height)
                #expect(cue.text == "\(value("--sprite"))#xywh=\(x),\(y),\(width),\(height)", "\(cue)")
            }
            if example.hasSuffix("--json") {
                let objects = try result.outputLines.map { try JSONValue(parsing: $0) }
                #expect(objects.filter { $0["event"]?.stringValue == "thumbnail" }.count == tiles)
                #expect(objects.last?["event"]?.stringValue == "summary")
                #expect(objects.last?["tiles"]?.doubleValue == Double(tiles))
            } else {
                #expect(result.outputLines.count == 1 && result.standardOutput.contains("\(tiles) thumbnails"))
            }
        }
    }

    @Test("a missing file: one error line naming it, status 1; a track and sprite in two folders: its path")
    func failures() async throws {
        let directory = try HelpExampleTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.mp4").path
        let result = try await CLIProcess.run([
            "thumbnails", missing, "--every", "1", "--size", "16x16", "--sprite", "/tmp/x.jpg", "--vtt", "/tmp/x.vtt",
        ])
        #expect(result.status == 1 && result.standardError.contains("missing.mp4"), "\(result.standardError)")
        #expect(ThumbnailsCommand.spriteURL("out/s.jpg", from: "out/t.vtt") == "s.jpg")
        #expect(ThumbnailsCommand.spriteURL("s.jpg", from: "t.vtt") == "s.jpg")
        #expect(ThumbnailsCommand.spriteURL("img/s.jpg", from: "t.vtt") == "img/s.jpg")
    }
}
