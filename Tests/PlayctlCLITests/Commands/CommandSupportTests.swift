import MediaIO
import PlayctlOutput
import Testing

@testable import PlayctlCLI

@Suite("Helpers of the commands")
struct CommandSupportTests {
    @Test func secondsHaveSixDecimals() {
        #expect(SecondsText.format(MediaTime(value: 249, timescale: 30)) == "8.300000")
        #expect(SecondsText.format(MediaTime(value: 1, timescale: 30)) == "0.033333")
        #expect(SecondsText.format(MediaTime(value: 2, timescale: 30)) == "0.066667")
        #expect(SecondsText.format(MediaTime(value: -7, timescale: 1000)) == "-0.007000")
        #expect(SecondsText.format(MediaTime(value: 44182, timescale: 90000)) == "0.490911")
        #expect(SecondsText.format(.zero) == "0.000000")
        #expect(SecondsText.format(.invalid) == "nan")
        #expect(SecondsText.format(microseconds: 12_000_001) == "12.000001")
        #expect(SecondsText.format(seconds: 1.5) == "1.500000")
        #expect(SecondsText.format(seconds: -0.0000004) == "0.000000")
    }

    @Test func aPrintedTimeSelectsAFrameUpToHalfAMicrosecondLater() {
        let target = MediaTime(printedSeconds: 0.490911)
        #expect(MediaTime(value: 44182, timescale: 90000) <= target)
        #expect(MediaTime(value: 490912, timescale: 1_000_000) > target)
        #expect(MediaTime(printedSeconds: 0) == MediaTime(value: 1, timescale: 2_000_000))
    }

    @Test func frameRatesPrintShort() {
        #expect(DecimalText.format(30) == "30")
        #expect(DecimalText.format(30000.0 / 1001) == "29.97")
        #expect(DecimalText.format(24000.0 / 1001) == "23.976")
        #expect(DecimalText.format(12.5) == "12.5")
    }

    @Test func diagnosticsStayOnOneLine() {
        #expect(CommandFailure("a\nb\tc").message == "a b c")
        let failure = CommandFailure.system(operation: "create", path: "/x/y.png", errno: 2)
        #expect(failure.message == "cannot create '/x/y.png': No such file or directory")
    }
}
