import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("ID3 tags written by ffmpeg's MP3 muxer (ID3v2.3 and 2.4), read by ID3Tag")
struct ID3TagFFmpegTests {
    @Test("text in both versions' encodings, a user-defined text frame, the cover as APIC", arguments: [3, 4])
    func mp3Tags(version: Int) throws {
        let ffmpeg = try #require(ProcessRunner.findExecutable("ffmpeg"), "ffmpeg is not in PATH")
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("tagged.mp3").path
        let result = try ProcessRunner.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=duration=0.2", "-i",
                MediaFixtures.path("still.jpg"), "-map", "0", "-map", "1", "-c:v", "copy", "-disposition:v",
                "attached_pic", "-metadata:s:v", "title=Front", "-c:a", "libmp3lame", "-id3v2_version", "\(version)",
                "-metadata", "title=Größe 日本", "-metadata", "artist=Plain", "-metadata", "custom_key=custom välue",
                path,
            ], standardError: .capture, timeout: 60)
        try #require(result.succeeded, "ffmpeg: \(result.errorText)")
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(file.prefix(4)) == Array("ID3".utf8) + [UInt8(version)])
        let frames = try #require(ID3Tag.frames(in: file))
        #expect(frames.first { $0.id == "TIT2" } == ID3Frame(id: "TIT2", text: "Größe 日本"))
        #expect(frames.first { $0.id == "TPE1" } == ID3Frame(id: "TPE1", text: "Plain"))
        #expect(frames.contains(ID3Frame(id: "TXXX", description: "custom_key", text: "custom välue")), "\(frames)")
        #expect(frames.first { $0.id == "TSSE" }?.text?.hasPrefix("Lavf") == true)
        let cover = try MediaFixtures.bytes("still.jpg")
        #expect(frames.first { $0.id == "APIC" } == ID3Frame(id: "APIC", description: "Front", data: cover))
    }
}
