import Streaming
import Testing

/// The rules for a deep buffer: the share of the estimate a switch up may take grows with the buffer (dash.js's BOLA
/// above its stable buffer), and a switch up may replace a buffer of lower quality (dash.js's fast switching).
@Suite("ABR: a deep buffer")
struct ABRDeepBufferTests {
    private typealias L = ABRTestLadder

    /// A machine on 800 kbit/s from a measured start, whose estimate is then `rate` (the last 3 downloads too).
    private func measured(
        at rate: Double, configuration: ABRConfiguration = .standard, variants: [Variant] = L.variants
    ) throws -> ABRMachine {
        var abr = try #require(ABRMachine(variants: variants, configuration: configuration))
        abr.feed(500_000, for: 4)
        #expect(abr.nextSegment(duration: 2).variant == variants[0])
        abr.feed(rate, for: 60)
        return abr
    }

    @Test(
        "the share for switching up grows from 0.7 with an empty buffer to 0.95 at 25 s",
        arguments: [(10.0, "v3000"), (13, "v3000"), (15, "v5000"), (25, "v5000"), (30, "v5000")])
    func shareGrowsWithBuffer(buffered: Double, expected: String) throws {
        // 6 Mbit/s: 0.7 x 6 = 4.2 carries 3 Mbit/s; 5 Mbit/s needs 5/6 = 0.83 of it, reached at 13.3 s buffered.
        var abr = try measured(at: 6_000_000)
        abr.bufferLevel(buffered)
        let decision = abr.nextSegment(duration: 2)
        #expect(decision.reason == .bandwidthUp)
        #expect(decision.variant.id == expected)
    }

    @Test("the fixed share (bandwidthFractionAtFullBuffer = bandwidthFraction) and a stall's recovery keep 0.7")
    func fixedShare() throws {
        var configuration = ABRConfiguration.standard
        configuration.bandwidthFractionAtFullBuffer = configuration.bandwidthFraction
        var fixed = try measured(at: 6_000_000, configuration: configuration)
        fixed.bufferLevel(30)
        #expect(fixed.nextSegment(duration: 2).variant == L.v3000)
        var stalled = try measured(at: 6_000_000)
        _ = stalled.stalled()
        stalled.bufferLevel(30)
        #expect(stalled.nextSegment(duration: 2).variant == L.v3000, "after a stall: 0.7 of the estimate")
    }

    @Test("the larger share is of the slowest of the last 3 downloads when the averages still remember a faster link")
    func recentDownloadsCap() throws {
        var abr = try measured(at: 8_000_000)
        abr.bufferLevel(30)
        abr.feed(1_500_000, for: 1.5, each: 0.5)  // three short downloads at 1.5 Mbit/s
        let estimate = abr.estimate
        #expect(estimate > 5_000_000 / 0.95, "the averages alone would carry 5 Mbit/s at 0.95")
        #expect(abr.estimator.slowestRecent == 1_500_000)
        // 0.7 x the estimate is the budget: more than 0.95 x 1.5 Mbit/s.
        #expect(0.7 * estimate >= 3_000_000 && 0.7 * estimate < 5_000_000)
        #expect(abr.nextSegment(duration: 2).variant == L.v3000)
    }

    @Test("no extra share before 3 downloads are known, nor with hls.js's estimate alone")
    func needsThreeDownloads() throws {
        var young = try #require(ABRMachine(variants: L.variants))
        young.feed(6_000_000, for: 4)  // two downloads
        _ = young.nextSegment(duration: 2)  // 0.7 x 6 carries 3 Mbit/s
        #expect(young.current == L.v3000)
        young.bufferLevel(30)
        #expect(young.nextSegment(duration: 2).variant == L.v3000)
        var hlsOnly = try #require(
            ABRMachine(variants: L.variants, estimator: BandwidthEstimator(riseConfirmationSamples: 0)))
        hlsOnly.feed(500_000, for: 4)
        _ = hlsOnly.nextSegment(duration: 2)
        hlsOnly.feed(6_000_000, for: 60)
        hlsOnly.bufferLevel(30)
        #expect(hlsOnly.nextSegment(duration: 2).variant == L.v3000)
    }

    @Test("a switch up with a deep buffer of a lower variant keeps 3.5 segments and switches at once")
    func replacement() throws {
        var abr = try measured(at: 8_000_000)
        abr.bufferLevel(16)
        let answer = abr.switchUpReplacingBuffer(duration: 2)
        let replacement = try #require(answer)
        #expect(replacement.decision == ABRDecision(variant: L.v5000, previous: L.v800, reason: .bandwidthUp))
        // 3.5 x 2 s; the 5 Mbit/s segment takes 1.25 s at 8 Mbit/s, within half of 7 s.
        #expect(replacement.retained == 7)
        #expect(abr.current == L.v5000)
        #expect(abr.switches == 1)
        // With only the kept buffer, the next decisions keep the new variant.
        abr.bufferLevel(7)
        #expect(abr.nextSegment(duration: 2) == ABRDecision(variant: L.v5000, previous: L.v5000, reason: .unchanged))
    }

    @Test("the kept buffer covers twice the new variant's segment at the estimate, at its peak bit rate")
    func replacementSafety() throws {
        // A rung whose peak is twice its average: chosen by its average once two segments are buffered.
        let low = Variant(
            id: "low", bandwidth: 800_000, resolution: Resolution(width: 640, height: 360),
            media: .playlist(url: "https://example.com/low.m3u8"))
        let bursty = Variant(
            id: "bursty", bandwidth: 9_000_000, averageBandwidth: 3_000_000,
            resolution: Resolution(width: 1280, height: 720), media: .playlist(url: "https://example.com/b.m3u8"))
        var abr = try measured(at: 4_400_000, variants: [low, bursty])
        abr.bufferLevel(25)
        let kept = 9_000_000 * 2 / abr.estimate / 0.5
        let answer = abr.switchUpReplacingBuffer(duration: 2)
        let replacement = try #require(answer)
        #expect(replacement.decision.variant == bursty)
        // 9 Mbit/s x 2 s / 4.4 Mbit/s = 4.09 s, over 0.5: 8.18 s kept (more than 3.5 segments).
        #expect(abs(replacement.retained - kept) < 1e-9 && kept > 8)
    }

    @Test("no replacement: not a switch up, too little buffered, the rule off, before the first decision")
    func noReplacement() throws {
        var slow = try measured(at: 1_000_000)
        slow.bufferLevel(30)
        let notUp = slow.switchUpReplacingBuffer(duration: 2)
        #expect(notUp == nil)
        #expect(slow.switches == 0 && slow.current == L.v800)
        var shallow = try measured(at: 8_000_000)
        shallow.bufferLevel(9)
        let tooShallow = shallow.switchUpReplacingBuffer(duration: 2)
        #expect(tooShallow == nil, "the up rule needs 10 s")
        #expect(shallow.current == L.v800)
        var configuration = ABRConfiguration.standard
        configuration.retainedSegmentsOnSwitchUp = nil
        var off = try measured(at: 8_000_000, configuration: configuration)
        off.bufferLevel(30)
        let ruleOff = off.switchUpReplacingBuffer(duration: 2)
        #expect(ruleOff == nil)
        #expect(off.current == L.v800)
        var fresh = try #require(ABRMachine(variants: L.variants))
        fresh.bufferLevel(30)
        let undecided = fresh.switchUpReplacingBuffer(duration: 2)
        #expect(undecided == nil)
        #expect(fresh.current == nil)
    }
}
