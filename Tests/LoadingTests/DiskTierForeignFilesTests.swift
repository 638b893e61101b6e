import Foundation
import Loading
import PlaybackTesting
import Testing

@Suite("The byte cache's disk tier in a shared directory")
struct DiskTierForeignFilesTests {
    @Test("what is not the tier's own (other files and folders) is left alone; its own broken entries go")
    func foreignFilesStay() throws {
        let directory = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fm = FileManager.default
        let notes = directory.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: notes)
        let folder = directory.appendingPathComponent("posters")
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("a.poster"))
        // A folder named as the tier names its own, without a head: a broken entry of its own.
        let broken = directory.appendingPathComponent("0123456789abcdef")
        try fm.createDirectory(at: broken, withIntermediateDirectories: true)
        _ = try ByteCache(ByteCache.Configuration(directory: directory.path))
        #expect(fm.fileExists(atPath: notes.path))
        #expect(fm.fileExists(atPath: folder.appendingPathComponent("a.poster").path))
        #expect(!fm.fileExists(atPath: broken.path))
    }
}
