import Foundation
import PlaybackTesting
import Testing

@Suite("playctl and encrypted media")
struct EncryptedCLITests {
    @Test("frames: without --decryption-key exit 1 naming the file and saying it is encrypted; with it, ffmpeg's md5s")
    func frames() async throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try EncryptedMedia.make(in: directory)
        let locked = try await CLIProcess.run(["frames", path, "--md5"])
        #expect(locked.status == 1)
        #expect(locked.standardError.contains(path) && locked.standardError.contains("encrypted"))
        #expect(locked.standardOutput.isEmpty, "no frame of noise printed")
        let open = try await CLIProcess.run(["frames", path, "--md5", "--decryption-key", EncryptedMedia.key])
        #expect(open.status == 0, "\(open.standardError)")
        #expect(
            open.outputLines.map { $0.split(separator: " ").last.map(String.init) ?? "" }
                == (try MediaFixtures.referenceMD5s("a.mp4")))
    }
}
