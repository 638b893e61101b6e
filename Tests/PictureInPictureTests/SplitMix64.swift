/// A tiny deterministic PRNG (SplitMix64, Steele, Lea & Flood 2014), so a
/// failing random sequence can be replayed from its seed on any platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<n` (n > 0); modulo bias is irrelevant for test generation.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
