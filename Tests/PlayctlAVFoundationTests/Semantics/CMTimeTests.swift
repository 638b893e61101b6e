import Playback
import PlayctlAVFoundation
import Testing

@Suite("CMTime and CMTimeRange follow CoreMedia")
struct CMTimeTests {
    @Test("construction, seconds, flags")
    func construction() {
        let half = CMTimeMake(value: 1, timescale: 2)
        #expect(half.seconds == 0.5 && half.isValid && half.isNumeric && CMTimeGetSeconds(half) == 0.5)
        #expect(CMTime(seconds: 1.5, preferredTimescale: 600) == CMTime(value: 900, timescale: 600))
        #expect(CMTimeMakeWithSeconds(0.1234567, preferredTimescale: 600).hasBeenRounded)
        #expect(!CMTime.invalid.isValid && CMTime.invalid.seconds.isNaN)
        #expect(CMTime.indefinite.isIndefinite && !CMTime.indefinite.isNumeric)
        #expect(CMTime.positiveInfinity.seconds == .infinity && CMTime.negativeInfinity.seconds == -.infinity)
        #expect(!CMTime(value: 1, timescale: 0).isValid)
        #expect(kCMTimeMaxTimescale == Int32.max)
    }

    @Test("order: -inf < numeric < indefinite < +inf < invalid; equal values across timescales")
    func order() {
        let ordered: [CMTime] = [
            .negativeInfinity, CMTimeMake(value: -1, timescale: 1), .zero, .indefinite, .positiveInfinity, .invalid,
        ]
        for (a, b) in zip(ordered, ordered.dropFirst()) {
            #expect(CMTimeCompare(a, b) == -1 && CMTimeCompare(b, a) == 1 && a < b)
        }
        #expect(CMTimeMake(value: 1, timescale: 2) == CMTimeMake(value: 2, timescale: 4))
        #expect(CMTimeCompare(.invalid, .invalid) == 0)
        #expect(Set([CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 3, timescale: 6)]).count == 1)
    }

    @Test("arithmetic: exact in the common timescale, non-numeric rules")
    func arithmetic() {
        let sum = CMTimeAdd(CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 1, timescale: 3))
        #expect(sum.value == 5 && sum.timescale == 6)
        #expect(
            CMTimeSubtract(CMTimeMake(value: 1, timescale: 1), CMTimeMake(value: 1, timescale: 4))
                == CMTimeMake(value: 3, timescale: 4))
        #expect((CMTime.positiveInfinity + CMTime.negativeInfinity).isValid == false)
        #expect((CMTime.indefinite + .zero).isIndefinite)
        #expect(CMTime.positiveInfinity + CMTimeMake(value: 1, timescale: 1) == .positiveInfinity)
        #expect(!(CMTime.invalid + .zero).isValid)
        #expect(CMTimeMultiply(CMTimeMake(value: 2, timescale: 3), multiplier: 3) == CMTimeMake(value: 2, timescale: 1))
        var time = CMTime.zero
        time += CMTimeMake(value: 1, timescale: 600)
        time -= CMTimeMake(value: 2, timescale: 600)
        #expect(
            time == CMTimeMake(value: -1, timescale: 600)
                && CMTimeAbsoluteValue(time) == CMTimeMake(value: 1, timescale: 600))
        #expect(
            CMTimeConvertScale(CMTimeMake(value: 1, timescale: 3), timescale: 10, method: .roundTowardZero).value == 3)
    }

    @Test("ranges hold their start, not their end")
    func ranges() {
        let range = CMTimeRange(start: CMTimeMake(value: 1, timescale: 1), duration: CMTimeMake(value: 2, timescale: 1))
        #expect(range.end == CMTimeMake(value: 3, timescale: 1) && CMTimeRangeGetEnd(range) == range.end)
        #expect(range.containsTime(range.start) && !range.containsTime(range.end))
        #expect(CMTimeRangeContainsTime(range, time: CMTimeMake(value: 29, timescale: 10)))
        #expect(!CMTimeRange.invalid.isValid && CMTimeRange.zero.isEmpty)
        #expect(
            CMTimeRange(start: .zero, end: CMTimeMake(value: 2, timescale: 1)).intersection(range).duration
                == CMTimeMake(value: 1, timescale: 1))
    }

    @Test("NSValue holds times and ranges; MediaTime converts both ways")
    func values() {
        let time = CMTimeMake(value: 1001, timescale: 30_000)
        #expect(NSValue(time: time).timeValue == time)
        let range = CMTimeRange(start: time, duration: .positiveInfinity)
        #expect(NSValue(timeRange: range).timeRangeValue == range)
        #expect(NSValue(time: time) == NSValue(time: time))
        #expect(CMTime(MediaTime(value: 5, timescale: 600)) == CMTimeMake(value: 5, timescale: 600))
        #expect(CMTime.indefinite.mediaTime == .indefinite && CMTime(MediaTime.positiveInfinity) == .positiveInfinity)
    }
}
