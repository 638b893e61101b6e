import Streaming
import Testing

/// hls.js's abandon rule (ABRMachine+Abandon): a download too slow for the buffer is given up for a lower variant.
@Suite("ABR machine: abandoning a slow download")
struct ABRAbandonTests {
    private typealias L = ABRTestLadder

    /// A machine on 1080p (5 Mbit/s) with an 8 Mbit/s estimate and `buffered` seconds ahead.
    private func onTop(buffered: Double) throws -> ABRMachine {
        var abr = try #require(ABRMachine(variants: L.variants, startEstimate: 8_000_000))
        abr.feed(8_000_000, for: 20)
        #expect(abr.nextSegment(duration: 2).variant == L.v5000)
        abr.bufferLevel(buffered)
        return abr
    }

    /// The progress of a 2 s 1080p segment (1.25 MB) `seconds` into a download at `rate` bit/s.
    private func progress(_ abr: inout ABRMachine, rate: Double, seconds: Double) -> ABRDecision? {
        abr.downloadProgress(
            variantID: L.v5000.id, bytes: L.bytes(rate, seconds), expectedBytes: L.bytes(5_000_000, 2),
            seconds: seconds, duration: 2)
    }

    @Test("the link drops to 1.5 Mbit/s mid-segment with 3 s buffered: given up for 360p at once, the drop learned")
    func drop() throws {
        var abr = try onTop(buffered: 3)
        // Half the duration not yet passed: never.
        #expect(progress(&abr, rate: 1_500_000, seconds: 0.9) == nil)
        // 1.1 s in: 0.21 MB of 1.25 arrived; the rest takes 5.6 s > 3 s buffered. 540p's 3.2 Mbit would take
        // 2.1 s: within the buffer, not within a segment's 2 s (the link would not carry it); 360p's 1.1 s.
        let decision = try #require(progress(&abr, rate: 1_500_000, seconds: 1.1))
        #expect(decision == ABRDecision(variant: L.v800, previous: L.v5000, reason: .downloadAbandoned))
        // The averages (8 Mbit/s for 20 s) would still say 6.5 Mbit/s: started again from the sample.
        #expect(abs(abr.estimate - 1_500_000) < 10_000, "the aborted download's rate: \(abr.estimate)")
        #expect(abr.switches == 1 && abr.current == L.v800)
        // The next segment follows the new estimate: 360p, and no further switch than that one.
        abr.bufferLevel(3)
        #expect(abr.nextSegment(duration: 2).variant == L.v800)
    }

    @Test("at 3.5 Mbit/s with 1.5 s buffered: 540p (720p would take 1.7 s); with 1 s at 1.5 Mbit/s: the lowest")
    func choice() throws {
        var middle = try onTop(buffered: 1.5)
        // 1.2 s in: 0.53 MB of 1.25; the rest takes 1.66 s > 1.5 s buffered.
        let decision = try #require(progress(&middle, rate: 3_500_000, seconds: 1.2))
        #expect(decision.variant == L.v1600 && decision.reason == .downloadAbandoned)
        #expect(abs(middle.estimate - 3_500_000) < 10_000, "\(middle.estimate)")
        var short = try onTop(buffered: 1)
        #expect(try #require(progress(&short, rate: 1_500_000, seconds: 1.2)).variant == L.v800)
    }

    @Test("a download that arrives before the buffer runs out, or that is nearly done, goes on")
    func goesOn() throws {
        var fast = try onTop(buffered: 3)
        #expect(progress(&fast, rate: 7_000_000, seconds: 1.2) == nil, "the rest arrives in time")
        var deep = try onTop(buffered: 12)
        #expect(progress(&deep, rate: 1_500_000, seconds: 1.5) == nil, "12 s buffered waits for the rest")
        var nearlyDone = try onTop(buffered: 0.2)
        // 1.2 MB of 1.25 in 6 s: the rest (0.05 MB) takes 0.27 s; 360p's whole segment would take 1 s.
        let late = nearlyDone.downloadProgress(
            variantID: L.v5000.id, bytes: 1_200_000, expectedBytes: 1_250_000, seconds: 6, duration: 2)
        #expect(late == nil, "nothing lower arrives sooner than the rest")
        #expect(nearlyDone.switches == 0 && deep.switches == 0 && fast.switches == 0)
    }

    @Test("never while pinned, never on the lowest variant, and never past 10 durations for the lower segment")
    func never() throws {
        var pinned = try #require(ABRMachine(variants: L.variants, limits: ABRLimits(pinnedVariantID: L.v5000.id)))
        _ = pinned.nextSegment(duration: 2)
        #expect(progress(&pinned, rate: 500_000, seconds: 1.5) == nil)
        var lowest = try #require(ABRMachine(variants: L.variants))
        _ = lowest.nextSegment(duration: 2)
        let onLowest = lowest.downloadProgress(
            variantID: L.v800.id, bytes: 20_000, expectedBytes: 200_000, seconds: 1.5, duration: 2)
        #expect(onLowest == nil)
        var crawling = try onTop(buffered: 0)
        // 30 kbit/s: 360p's 1.6 Mbit would take 53 s, more than 10 x 2 s.
        #expect(progress(&crawling, rate: 30_000, seconds: 1.5) == nil)
    }

    @Test("a request that waited 1.4 s for its first byte (a busy connection) is timed from that byte: not slow")
    func firstByte() throws {
        var abr = try onTop(buffered: 1.5)
        // 0.3 MB in 1.7 s since the request, 0.3 s since the first byte: 8 Mbit/s; the rest arrives in 0.95 s.
        let decision = abr.downloadProgress(
            variantID: L.v5000.id, bytes: 300_000, expectedBytes: 1_250_000, seconds: 1.7, receivingSeconds: 0.3,
            duration: 2)
        #expect(decision == nil)
        #expect(abr.switches == 0)
    }
}
