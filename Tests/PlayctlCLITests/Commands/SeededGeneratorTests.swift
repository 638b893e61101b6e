import PlaybackTesting
import Testing

@testable import PlayctlCLI

/// The product's seeded generator (`feed`'s scroll, `soak`'s steps) replays from its seed, as the test kit's
/// SplitMix64 does: same algorithm, so a seed gives the scroll it gave before the CLI stopped linking the kit.
@Suite("SeededGenerator")
struct SeededGeneratorTests {
    @Test func firstValueForSeedZero() {
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test(arguments: [UInt64(0), 1, 0x50A4, .max])
    func sameSequenceAsTheKitsSplitMix64(seed: UInt64) {
        var product = SeededGenerator(seed: seed)
        var kit = SplitMix64(seed: seed)
        for _ in 0..<1000 { #expect(product.next() == kit.next()) }
        for bound in [1, 2, 7, 100, 1 << 40] { #expect(product.below(bound) == kit.below(bound)) }
        for percent in [0, 10, 50, 100] { #expect(product.chance(percent) == kit.chance(percent)) }
    }
}
