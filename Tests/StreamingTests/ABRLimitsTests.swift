import Streaming
import Testing

@Suite("ABR limits")
struct ABRLimitsTests {
    private let ladder = ABRTestLadder.variants
    private func ids(_ variants: [Variant]) -> [String] { variants.map(\.id) }

    @Test("no limits: every variant, lowest bandwidth first whatever the input order")
    func none() {
        #expect(ids(ABRLimits.none.eligible(ladder.reversed())) == ["v800", "v1600", "v3000", "v5000"])
        #expect(ABRLimits.none.eligible([]).isEmpty)
    }

    @Test("preferredPeakBitRate: variants above it are out; 0 means no limit")
    func peakBitRate() {
        #expect(ids(ABRLimits(preferredPeakBitRate: 3_000_000).eligible(ladder)) == ["v800", "v1600", "v3000"])
        #expect(ids(ABRLimits(preferredPeakBitRate: 2_999_999).eligible(ladder)) == ["v800", "v1600"])
        #expect(ABRLimits(preferredPeakBitRate: 0).eligible(ladder).count == 4)
    }

    @Test("the expensive-network cap applies only while the network is expensive, and the lower cap wins")
    func expensiveNetwork() {
        var limits = ABRLimits(preferredPeakBitRate: 3_000_000, preferredPeakBitRateForExpensiveNetworks: 1_600_000)
        #expect(ids(limits.eligible(ladder)) == ["v800", "v1600", "v3000"])
        limits.isNetworkExpensive = true
        #expect(ids(limits.eligible(ladder)) == ["v800", "v1600"])
        #expect(limits.effectivePeakBitRate == 1_600_000)
        limits.preferredPeakBitRate = 1_000_000
        #expect(ids(limits.eligible(ladder)) == ["v800"])
    }

    @Test("preferredMaximumResolution: both sides at most; a variant of unknown resolution stays eligible")
    func resolution() {
        let limits = ABRLimits(preferredMaximumResolution: Resolution(width: 1280, height: 720))
        #expect(ids(limits.eligible(ladder)) == ["v800", "v1600", "v3000"])
        let portrait = ABRLimits(preferredMaximumResolution: Resolution(width: 1920, height: 540))
        #expect(ids(portrait.eligible(ladder)) == ["v800", "v1600"])
        let unknown = Variant(id: "audio", bandwidth: 9_000_000, media: .playlist(url: "https://example.com/a.m3u8"))
        #expect(ids(limits.eligible(ladder + [unknown])) == ["v800", "v1600", "v3000", "audio"])
    }

    @Test("a pinned variant is the only one eligible, over every other limit; an unknown pin is ignored")
    func pinned() {
        let pinned = ABRLimits(preferredPeakBitRate: 1_000_000, pinnedVariantID: "v5000")
        #expect(ids(pinned.eligible(ladder)) == ["v5000"])
        let unknown = ABRLimits(preferredPeakBitRate: 1_000_000, pinnedVariantID: "v9999")
        #expect(ids(unknown.eligible(ladder)) == ["v800"])
    }

    @Test("when nothing fits, the lowest variant alone (as AVPlayer plays the lowest under too low a peak)")
    func nothingFits() {
        #expect(ids(ABRLimits(preferredPeakBitRate: 100_000).eligible(ladder.reversed())) == ["v800"])
        let tiny = ABRLimits(preferredMaximumResolution: Resolution(width: 320, height: 180))
        #expect(ids(tiny.eligible(ladder)) == ["v800"])
    }
}
