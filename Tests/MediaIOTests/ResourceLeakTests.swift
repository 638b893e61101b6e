import Foundation
import Locking
import MediaIO
import PlaybackTesting
import Testing

@Suite("No leaks of file descriptors or threads")
struct ResourceLeakTests {
    /// Open descriptors of this process that point at `path`.
    static func descriptors(to path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }.count
    }

    /// Threads of this process named `name`. Linux threads inherit their creator's name, so FFmpeg's decoder
    /// threads started from a thread named `name` carry it too: other tests' threads, running in parallel, do not.
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter {
            (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    @Test("opening, decoding and closing a file 500 times leaves descriptors and threads as they were")
    func openClose500Times() async throws {
        // A private copy, so descriptors other tests open on the clips do not count.
        let dir = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("leak-check.mp4").path
        try FileManager.default.copyItem(atPath: MediaFixtures.path("b.mp4"), toPath: path)
        // The whole cycle runs on a thread of its own with a unique name (see `threads(named:)`).
        let name = "leakcheck\(getpid() % 1000)"
        let result = Locked<(before: Int, during: Int, after: Int, error: String?)>((0, 0, 0, nil))
        let thread = Thread {
            Self.nameCurrentThread(name)
            let before = Self.threads(named: name)
            var during = 0
            do {
                for i in 0..<500 {
                    let reader = try VideoFrameReader(url: path)
                    if i % 2 == 0 {
                        _ = try reader.nextFrame()
                    } else {
                        _ = try reader.seek(to: MediaTime(seconds: 1.5), mode: .exact)
                    }
                    if i == 250 { during = Self.threads(named: name) }
                    if i % 50 == 0 {
                        let audio = try AudioSampleReader(url: path)
                        _ = try audio.nextBuffer()
                        if Self.descriptors(to: path) != 2 {
                            throw MediaError(.other, url: path, operation: .open, reason: "descriptors")
                        }
                    }
                }
            } catch {
                result.withLock { $0.error = "\(error)" }
            }
            let after = Self.threads(named: name)
            result.withLock {
                $0.before = before
                $0.during = during
                $0.after = after
            }
        }
        thread.start()
        // 500 rounds of real work: a generous deadline (the whole suite may run beside it), a hang detector only.
        try await waitUntil("the decoding thread to finish its 500 rounds", timeout: .seconds(600)) {
            thread.isFinished
        }
        let counts = result.withLock { $0 }
        #expect(counts.error == nil)
        #expect(Self.descriptors(to: path) == 0)
        #expect(counts.during > counts.before, "FFmpeg's decoder threads carry the name: the check can see them")
        #expect(counts.after == counts.before, "threads named \(name): before \(counts.before), after \(counts.after)")
    }

    /// glibc's pthread_setname_np (not imported into Swift without _GNU_SOURCE).
    static func nameCurrentThread(_ name: String) {
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_setname_np") else { return }
        _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), name)
    }
}
