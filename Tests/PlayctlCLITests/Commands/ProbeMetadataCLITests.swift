import Foundation
import PlaybackTesting
import Testing

@Suite("playctl probe: tags, chapters and cover art")
struct ProbeMetadataCLITests {
    @Test(
        "probe --json of MP3, FLAC and M4A: the cover is artwork and an attached picture; tags and chapters",
        arguments: ["mp3", "flac", "m4a"])
    func coverArt(format: String) async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TaggedAudio.make("tagged.\(format)", in: directory)
        let result = try await CLIProcess.run(["probe", path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let artwork = try #require(report["artwork"] as? [String: Any])
        #expect(artwork["codec"] as? String == "mjpeg")
        #expect(artwork["bytes"] as? Int == (try MediaFixtures.bytes("still.jpg")).count)
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        #expect(tracks.contains { $0["attachedPicture"] as? Bool == true && $0["kind"] as? String == "video" })
        let tags = try #require(report["metadata"] as? [String: Any])
        #expect(tags["title"] as? String == "Test Title")
        if format != "flac" {
            let chapters = try #require(report["chapters"] as? [[String: Any]])
            #expect(chapters.map { $0["title"] as? String } == ["One", "Two"], "\(format)")
        }
        let text = try await CLIProcess.run(["probe", path])
        #expect(text.outputLines.contains { $0.hasPrefix("Artwork:") && $0.contains("mjpeg 320x240") })
        #expect(text.outputLines.contains { $0.hasPrefix("Title:") && $0.hasSuffix("Test Title") })
    }
}
