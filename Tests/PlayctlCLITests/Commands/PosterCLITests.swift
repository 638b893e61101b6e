import Foundation
import PlaybackTesting
import Testing

@testable import PlayctlCLI

/// `playctl poster`: its help examples run as written (file names pointed at a folder of real files), and what
/// each promises holds.
@Suite("playctl poster")
struct PosterCLITests {
    /// The width and height a PNG file's header gives.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        let be = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    /// Runs help example `index` of `poster` in `directory` (its relative names made paths there).
    static func runExample(_ index: Int, in directory: URL) async throws -> CLIProcess.Result {
        let example = PosterCommand.configuration.examples[index].commandLine
        let words = example.split(separator: " ").map(String.init).dropFirst()  // "playctl"
        let arguments = words.map { word in
            word.contains(".") && !word.hasPrefix("-") && Double(word) == nil
                ? directory.appendingPathComponent(word).path : word
        }
        return try await CLIProcess.run(arguments)
    }

    static func folder() throws -> URL {
        let directory = try TemporaryDirectory.make()
        try FileManager.default.copyItem(
            atPath: MediaFixtures.path("a.mp4"), toPath: directory.appendingPathComponent("clip.mp4").path)
        let list = ["clip.mp4", "clip.mp4 2", MediaFixtures.path("still.jpg"), "# a comment", "", "clip.mp4"]
            .map { $0.hasPrefix("clip") ? directory.appendingPathComponent($0).path : $0 }
        try list.joined(separator: "\n").write(
            to: directory.appendingPathComponent("list.txt"), atomically: true, encoding: .utf8)
        return directory
    }

    @Test("'poster clip.mp4 -o poster.png': the first frame at its own size")
    func firstFrame() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.runExample(0, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Self.pngSize(directory.appendingPathComponent("poster.png").path) == (640, 360))
    }

    @Test("'--at 2 --size 320x180 --fit fill -o thumb.png': 320x180, the frame at 2 s")
    func scaledFrame() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.runExample(1, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let thumb = directory.appendingPathComponent("thumb.png").path
        #expect(try Self.pngSize(thumb) == (320, 180))
        // Not the first frame: another picture than the one at 0 s at the same size.
        let first = try await CLIProcess.run([
            "poster", directory.appendingPathComponent("clip.mp4").path, "--size", "320x180", "--fit", "fill", "-o",
            directory.appendingPathComponent("first.png").path,
        ])
        #expect(first.status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: thumb))
                != Data(contentsOf: directory.appendingPathComponent("first.png")))
    }

    @Test("'--batch list.txt --size 132x132 --json': a poster line per source in order, then the summary")
    func batch() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.runExample(2, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let objects = try result.outputLines.map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        try #require(objects.count == 5, "\(result.standardOutput)")
        #expect(objects.prefix(4).map { $0["event"] as? String } == Array(repeating: "metric.poster", count: 4))
        #expect(objects[0]["width"] as? Int == 132 && objects[0]["height"] as? Int == 74)
        #expect(objects[1]["time"] as? Double == 2)
        #expect(objects[2]["width"] as? Int == 132 && objects[2]["height"] as? Int == 99)  // still.jpg, 320x240
        let summary = objects[4]
        #expect(summary["event"] as? String == "metric.posterSummary")
        #expect(summary["requests"] as? Int == 4)
        // The first and last lines are one key: one fetch and decode between them (joined or a cache hit).
        #expect(summary["fetches"] as? Int == 3 && summary["decodes"] as? Int == 3)
        let stages = try #require(summary["stages"] as? [String: Any])
        #expect(Set(stages.keys) == ["queueWait", "fetch", "demux", "decode", "scale", "total"])
    }

    @Test("usage and input errors: no source, both, a bad size, a missing file, a bad list line")
    func errors() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await CLIProcess.run(["poster"]).status == 2)
        #expect(try await CLIProcess.run(["poster", "a.mp4", "--batch", "l.txt"]).status == 2)
        #expect(try await CLIProcess.run(["poster", "a.mp4", "--size", "0x10", "-o", "x.png"]).status == 2)
        let missing = try await CLIProcess.run(["poster", "/nonexistent/v.mp4", "-o", directory.path + "/x.png"])
        #expect(missing.status == 1 && missing.standardError.contains("/nonexistent/v.mp4"))
        let bad = directory.appendingPathComponent("bad.txt")
        try "a.mp4 1 2\n".write(to: bad, atomically: true, encoding: .utf8)
        let badList = try await CLIProcess.run(["poster", "--batch", bad.path])
        #expect(badList.status == 1 && badList.standardError.contains("bad.txt:1"))
    }
}
