import Foundation
import MediaIO
import PlaybackTesting
import Testing

@Suite("Encrypted MP4 (common encryption)")
struct EncryptedMediaTests {
    @Test("without its key, reading fails with .encrypted naming the file; with it, every frame is the clear one's")
    func keyOrNot() throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try EncryptedMedia.make(in: directory)
        do {
            let reader = try VideoFrameReader(demuxer: Demuxer(url: path))
            _ = try reader.nextFrame()
            Issue.record("an encrypted sample was decoded without its key")
        } catch {
            #expect(error.kind == .encrypted)
            #expect(error.url == path)
        }
        let reader = try VideoFrameReader(demuxer: Demuxer(url: path, decryptionKey: EncryptedMedia.key))
        var md5s: [String] = []
        while let frame = try reader.nextFrame() { md5s.append(frame.md5()) }
        #expect(md5s == (try MediaFixtures.referenceMD5s("a.mp4")))
    }

    @Test("a key that is not 32 hex digits is refused, naming the file")
    func badKey() {
        #expect(throws: MediaError.self) { _ = try Demuxer(url: MediaFixtures.path("a.mp4"), decryptionKey: "12") }
    }
}
