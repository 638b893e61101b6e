import Foundation

/// The scroll `--swipes`, `--dwell` and `--seed` describe, drawn from a `SeededGenerator`: the same arguments give the same
/// steps on every run and machine.
///
/// It starts on item 0 and swipes forward, never past the last item (the scroll stops there: a short feed gets
/// fewer swipes). Each item is watched for a dwell drawn from a log-normal distribution whose median is `dwell`
/// (sigma 0.5), clamped to [0.2, 5 x `dwell`]. An ordinary swipe moves one item at ``swipeSpeed`` items a second.
/// One swipe in ten (``flingPercent``) is a fling: 3 to 8 items ahead (as many as are left) at 10 to 20 items a
/// second, over a second step on the same item at speed 0 once it has passed them (`items / speed` seconds later),
/// when the fling settles; its dwell counts from then.
extension FeedScroll {
    /// Items a second of an ordinary swipe (below `PrefetchPolicy.flingSpeed`).
    static let swipeSpeed = 2.0
    /// Chance of a fling, in percent.
    static let flingPercent = 10
    /// Items a fling passes, and its speed in items a second.
    static let flingItems = 3...8
    static let flingSpeeds = 10.0...20.0
    /// The spread of the dwell's log-normal distribution.
    static let dwellSigma = 0.5

    /// The scroll of `swipes` swipes over `entries` items (at least 1), dwelling about `dwell` seconds.
    static func generated(entries: Int, swipes: Int, dwell: Double, seed: UInt64) -> FeedScroll {
        var random = SeededGenerator(seed: seed)
        var steps = [Step(at: 0, index: 0, speed: 0)]
        var time = 0.0
        var index = 0
        let last = max(entries - 1, 0)
        for _ in 0..<swipes where index < last {
            time += drawDwell(around: dwell, &random)
            let fling = random.chance(flingPercent)
            let items = flingItems.lowerBound + random.below(flingItems.count)
            let speed = flingSpeeds.lowerBound + unit(&random) * (flingSpeeds.upperBound - flingSpeeds.lowerBound)
            if fling && last - index >= 2 {
                let jump = min(items, last - index)
                index += jump
                steps.append(Step(at: time, index: index, speed: speed))
                time += Double(jump) / speed
                steps.append(Step(at: time, index: index, speed: 0))
            } else {
                index += 1
                steps.append(Step(at: time, index: index, speed: swipeSpeed))
            }
        }
        return FeedScroll(steps: steps, end: time + drawDwell(around: dwell, &random))
    }

    /// A dwell around `median`: log-normal (Box-Muller from two uniform draws), clamped to [0.2, 5 x `median`].
    static func drawDwell(around median: Double, _ random: inout SeededGenerator) -> Double {
        let u1 = max(unit(&random), .leastNormalMagnitude)
        let u2 = unit(&random)
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
        return min(max(median * exp(dwellSigma * normal), 0.2), 5 * median)
    }

    /// A uniform number in [0, 1) from the top 53 bits of the next value.
    static func unit(_ random: inout SeededGenerator) -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }
}
