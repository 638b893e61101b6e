import PlaybackTesting
import Testing

@Suite struct SplitMix64Tests {
    @Test func sameSeedSameSequenceAndKnownFirstValue() {
        var a = SplitMix64(seed: 0)
        var b = SplitMix64(seed: 0)
        let first = a.next()
        #expect(first == 0xE220_A839_7B1D_CDAF, "SplitMix64 reference value for seed 0")
        #expect(b.next() == first)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }
}
