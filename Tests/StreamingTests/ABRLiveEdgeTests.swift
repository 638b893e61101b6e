import Testing

@testable import Streaming

/// The switch-up rule in a live play: a play a few target durations behind the live edge never holds 10 s, so 0.75 of
/// the media to the edge is enough buffer (Media3's `bufferedFractionToLiveEdgeForQualityIncrease`).
@Suite("ABR at a live edge")
struct ABRLiveEdgeTests {
    private typealias L = ABRTestLadder

    /// A machine on 800 kbit/s whose estimate (measured, 8 Mbit/s) wants 5 Mbit/s, with `buffered` seconds held.
    private func machine(buffered: Double) throws -> ABRMachine {
        var abr = try #require(ABRMachine(variants: L.variants, limits: ABRLimits(pinnedVariantID: "v800")))
        _ = abr.nextSegment(duration: 2)
        abr.feed(8_000_000, for: 20)
        _ = abr.limitsChanged(ABRLimits())
        abr.bufferLevel(buffered)
        return abr
    }

    @Test("4 s buffered, 5 s to the edge (the 2 s chosen left out: 0.75 x 3 = 2.25 s) switches up; VOD needs 10 s")
    func switchesUpNearTheEdge() throws {
        var vod = try machine(buffered: 4)
        #expect(vod.nextSegment(duration: 2).reason == .unchanged, "10 s needed in a VOD play")
        var live = try machine(buffered: 4)
        live.liveEdge(availableSeconds: 5)
        let decision = live.nextSegment(duration: 2)
        #expect(decision.reason == .bandwidthUp)
        #expect(decision.variant == L.v5000)
    }

    @Test("less than 0.75 of the media to the edge stays; the edge told as nil is a VOD play again")
    func staysShortOfTheFraction() throws {
        var live = try machine(buffered: 2.2)
        live.liveEdge(availableSeconds: 5)
        #expect(live.nextSegment(duration: 2).reason == .unchanged, "2.2 s < 0.75 x (5 - 2) s")
        live.bufferLevel(2.25)
        #expect(live.nextSegment(duration: 2).reason == .bandwidthUp)
        #expect(live.availableToLiveEdge == 5)
        live = try machine(buffered: 2.2)
        live.liveEdge(availableSeconds: nil)
        live.bufferLevel(9.9)
        #expect(live.nextSegment(duration: 2).reason == .unchanged)
        live.bufferLevel(10)
        #expect(live.nextSegment(duration: 2).reason == .bandwidthUp)
        live.liveEdge(availableSeconds: -3)
        #expect(live.availableToLiveEdge == 0, "negative is 0")
        #expect(ABRConfiguration.standard.bufferedFractionToLiveEdgeForQualityIncrease == 0.75)
    }
}
