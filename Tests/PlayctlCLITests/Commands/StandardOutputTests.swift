import Foundation
import Testing

@testable import PlayctlCLI

#if canImport(Glibc)
import Glibc
#endif

/// Standard output batches lines but never holds them long: a reader at the other end of a pipe (`| head`) sees
/// the first line at once.
@Suite("Standard output to a pipe")
struct StandardOutputTests {
    /// Bytes readable from `descriptor` now, without waiting.
    static func available(_ descriptor: Int32) -> String {
        var pending: Int32 = 0
        _ = ioctl(descriptor, UInt(FIONREAD), &pending)
        guard pending > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(pending))
        let count = read(descriptor, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test("the first line is written at once; later ones together, when the buffer fills or flush is called")
    func batching() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        // A long interval: only the first line, a full buffer or flush() writes.
        let output = StandardOutput(descriptor: ends[1], capacity: 64, intervalMilliseconds: 60_000)
        try output.line("first")
        #expect(Self.available(ends[0]) == "first\n")
        try output.line("second")
        #expect(Self.available(ends[0]) == "")
        try output.line(String(repeating: "x", count: 60))
        #expect(Self.available(ends[0]) == "second\n" + String(repeating: "x", count: 60) + "\n")
        try output.json(["n": 1])
        try output.flush()
        #expect(Self.available(ends[0]) == "{\"n\":1}\n")
    }

    @Test("a line that comes after the interval goes out with what was waiting")
    func interval() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let output = StandardOutput(descriptor: ends[1], capacity: 1 << 20, intervalMilliseconds: 20)
        try output.line("a")
        _ = Self.available(ends[0])
        try output.line("b")
        usleep(30_000)
        try output.line("c")
        #expect(Self.available(ends[0]) == "b\nc\n")
    }
}
