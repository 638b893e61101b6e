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

    @Test func loadAverageIsANumberWhereThereIsOne() {
        #expect(LoadAverage.oneMinute().map { $0 >= 0 } ?? true)
    }
}
