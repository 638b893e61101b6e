/// The corpus generator: a 64-bit linear congruential generator (Knuth's MMIX constants), which bash arithmetic
/// reproduces exactly, so `scripts/make-broken-media.sh` makes the same files as `BrokenMedia.write(in:)`.
public struct BrokenMediaGenerator: Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next state: `state * 6364136223846793005 + 1442695040888963407` (mod 2^64).
    public mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
