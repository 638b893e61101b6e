/// SplitMix64 (Steele, Lea & Flood 2014): a small, fast, seeded generator, so a randomized test or run replays
/// exactly from its seed.
///
/// Promises: the same seed gives the same sequence of `next()` values on every platform and Swift version (the
/// first value for seed 0 is `0xE220_A839_7B1D_CDAF`). The helpers below derive their results from `next()` with
/// plain integer arithmetic, so they replay the same way too; the standard library's `Int.random(in:using:)` and
/// `randomElement(using:)` also work with it, but their algorithms belong to the standard library.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` must be positive), by `next() % n`: slightly biased for large `n`, which does not
    /// matter for generating test steps.
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(_:) needs a positive bound")
        return Int(next() % UInt64(n))
    }

    /// `true` with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// `true` or `false`, from the lowest bit of `next()`.
    public mutating func bool() -> Bool {
        next() & 1 == 1
    }

    /// One of `items` (which must not be empty), chosen with `below(_:)`.
    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
