import Foundation
import Testing

@testable import PlayctlBench

@Suite("Helpers of the benchmark")
struct BenchSupportTests {
    @Test func medianOfOddAndEvenCounts() {
        #expect(BenchTiming.median([3, 1, 2]) == 2)
        #expect(BenchTiming.median([4, 1, 3, 2]) == 2.5)
        #expect(BenchTiming.median([]).isNaN)
    }

    @Test func benchCommandLinesAreQuotedForTheShell() {
        let plain = BenchCase(
            tool: "ffmpeg", executable: "/usr/bin/ffmpeg", arguments: ["-ss", "8.3", "-i", "a b.mp4"])
        #expect(plain.commandLine == "ffmpeg -ss 8.3 -i 'a b.mp4'")
        let quote = BenchCase(tool: "mpv", executable: "/usr/bin/mpv", arguments: ["it's"])
        #expect(quote.commandLine == "mpv 'it'\\''s'")
    }

    /// Linux has /proc/loadavg: the value read is its first field (read just before and just after, since the kernel
    /// updates it every 5 s).
    @Test func loadAverageIsTheFirstFieldOfProcLoadavg() throws {
        func firstField() throws -> Double? {
            try String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first.flatMap {
                Double($0)
            }
        }
        let before = try #require(try firstField())
        let read = try #require(LoadAverage.oneMinute())
        let after = try #require(try firstField())
        #expect(read == before || read == after, "read \(read); /proc/loadavg said \(before), then \(after)")
    }
}
