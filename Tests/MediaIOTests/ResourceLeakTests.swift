import Foundation
import MediaIO
import Testing

@Suite("No leaks of file descriptors or threads")
struct ResourceLeakTests {
    /// Open descriptors of this process that point at `path`.
    static func descriptors(to path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }

    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    @Test("opening, decoding and closing a file 500 times leaves descriptors and threads as they were")
    func openClose500Times() throws {
        // A private copy, so descriptors other tests open on the clips do not count.
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("leak-check.mp4").path
        try FileManager.default.copyItem(atPath: Fixtures.path("b.mp4"), toPath: path)
        let threadsBefore = Self.threadCount()
        for i in 0..<500 {
            let reader = try VideoFrameReader(url: path)
            if i % 2 == 0 {
                _ = try reader.nextFrame()
            } else {
                _ = try reader.seek(to: MediaTime(seconds: 1.5), mode: .exact)
            }
            if i % 50 == 0 {
                let audio = try AudioSampleReader(url: path)
                _ = try audio.nextBuffer()
                #expect(Self.descriptors(to: path) == 2, "the open reader and the audio reader")
            }
        }
        #expect(Self.descriptors(to: path) == 0)
        // Other tests run in parallel and start threads of their own: allow a little slack, far below one thread
        // per iteration (each reader starts FFmpeg frame threads).
        let threadsAfter = Self.threadCount()
        #expect(threadsAfter <= threadsBefore + 8, "threads before \(threadsBefore), after \(threadsAfter)")
    }
}
