import Testing

/// SplitMix64: a small deterministic generator, so randomized tests replay exactly from their seed.
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

    mutating func bool() -> Bool { next() & 1 == 1 }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}

@Suite struct SplitMix64Tests {
    @Test func sameSeedSameSequenceAndKnownFirstValue() {
        var a = SplitMix64(seed: 0), b = SplitMix64(seed: 0)
        let first = a.next()
        #expect(first == 0xE220_A839_7B1D_CDAF, "SplitMix64 reference value for seed 0")
        #expect(b.next() == first)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }
}
