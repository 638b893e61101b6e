/// A small seeded random number generator for the commands whose randomness must replay: `feed`'s generated scroll
/// and `soak`'s steps. The same seed gives the same values on every run, platform and Swift version.
///
/// The algorithm is SplitMix64 (Steele, Lea & Flood 2014): one 64-bit state, advanced by a fixed odd constant and
/// mixed on the way out; the first value for seed 0 is `0xE220_A839_7B1D_CDAF`. The helpers derive their results
/// from `next()` with plain integer arithmetic, so they replay the same way too.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is determined by `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` must be positive), by `next() % n`: slightly biased for large `n`, which does not
    /// matter for drawing a scroll's steps.
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(n))
    }

    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}
