import PlaybackTesting

/// A user's scroll through a feed, generated from a seed (SplitMix64): the same seed and parameters give the same
/// swipes on every run, so several players can be driven through one trace.
///
/// The trace starts on item 0 (the feed opens there; it is not a swipe), then each swipe moves to a new item after
/// the user watched the current one for its dwell. A swipe is usually to the next item, sometimes back to the
/// previous one; at the last item the user goes back to the top (item 0). With a jump, each swipe instead skips
/// ahead by `jump` items (around the end), to land on items nothing has prefetched.
public struct SwipeTrace: Sendable, Equatable {
    /// How long the user watches each item, in seconds.
    public enum Dwell: Sendable, Equatable {
        /// Always this long.
        case fixed(Double)
        /// `median` times 2^u with u uniform in -`spread`...`spread` (log-uniform around the median: half of the
        /// dwells are shorter, half longer; with spread 1, from half to twice the median).
        case around(median: Double, spread: Double)
    }

    /// One step: the item scrolled to and how long it stays on screen.
    public struct Swipe: Sendable, Equatable {
        public var index: Int
        public var dwell: Double
    }

    /// The first entry is item 0, where the feed opens; every later one is a swipe.
    public var steps: [Swipe]

    /// Swipes (the opening item excluded).
    public var swipes: Int { steps.count - 1 }
    /// Seconds from the opening to the end of the last dwell.
    public var duration: Double { steps.reduce(0) { $0 + $1.dwell } }

    /// `swipes` swipes over `items` items: forward, back with `backPercent` percent chance (never before item 0),
    /// or, when `jump` is given, ahead by a number of items in that range, wrapping around.
    public init(
        seed: UInt64, swipes: Int, items: Int, dwell: Dwell, backPercent: Int = 10, jump: ClosedRange<Int>? = nil
    ) {
        var random = SplitMix64(seed: seed)
        func draw() -> Double {
            switch dwell {
            case .fixed(let seconds):
                return seconds
            case .around(let median, let spread):
                // 1e6 steps of u: plain integer arithmetic, so the trace replays everywhere.
                let u = (Double(random.below(2_000_001)) / 1_000_000 - 1) * spread
                return median * Self.exp2(u)
            }
        }
        var steps = [Swipe(index: 0, dwell: draw())]
        var index = 0
        for _ in 0..<max(swipes, 0) {
            if let jump {
                index = (index + jump.lowerBound + random.below(jump.count)) % max(items, 1)
            } else if index > 0 && random.chance(backPercent) {
                index -= 1
            } else {
                index = index + 1 < items ? index + 1 : 0
            }
            steps.append(Swipe(index: index, dwell: draw()))
        }
        self.steps = steps
    }

    /// 2^x for |x| <= 4 or so, from its Taylor series (no libm, so every platform gives the same bits).
    static func exp2(_ x: Double) -> Double {
        let y = x * 0.693_147_180_559_945_3
        var term = 1.0
        var sum = 1.0
        for n in 1..<30 {
            term *= y / Double(n)
            sum += term
        }
        return sum
    }
}
