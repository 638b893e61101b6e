import Streaming
import Testing

@Suite("ABR scenarios")
struct ABRScenarioTests {
    private typealias L = ABRTestLadder

    /// Samples alternating +-10% around `center`, each a 30 s download so the estimate itself swings, with 15 s
    /// buffered (between the 10 s of the up rule and the 25 s of the down rule, so both rules are live) unless
    /// `buffered` says otherwise. Returns the machine and the lowest and highest estimate it saw.
    private func wobble(
        around center: Double, start: Double, configuration: ABRConfiguration = .standard, buffered: Double = 15
    ) throws -> (ABRMachine, Double, Double) {
        var abr = try #require(ABRMachine(variants: L.variants, startEstimate: start, configuration: configuration))
        _ = abr.nextSegment(duration: 2)
        abr.bufferLevel(buffered)
        var seen = (low: Double.infinity, high: 0.0)
        for index in 0..<40 {
            let rate = center * (index.isMultiple(of: 2) ? 1.1 : 0.9)
            abr.segmentLoaded(bytes: L.bytes(rate, 30), seconds: 30, variantID: "test")
            seen = (min(seen.low, abr.estimate), max(seen.high, abr.estimate))
            _ = abr.nextSegment(duration: 2)
        }
        return (abr, seen.low, seen.high)
    }

    @Test("an estimate wobbling +-10% around the line for switching up switches at most once")
    func noFlappingUp() throws {
        let line = 3_000_000 / 0.7  // where 3 Mbit/s becomes the target
        let (abr, low, high) = try wobble(around: line, start: 2_500_000)
        #expect(low < line && high > line, "the estimate crosses the line")
        #expect(abr.switches <= 1)
        #expect(abr.current == L.v3000)
    }

    @Test("an estimate wobbling +-10% around the line for staying switches at most once")
    func noFlappingDown() throws {
        let line = 3_000_000 / 0.95  // under which 3 Mbit/s is left
        let (abr, low, high) = try wobble(around: line, start: 3_000_000 / 0.7)
        #expect(low < line && high > line, "the estimate crosses the line")
        #expect(abr.switches <= 1)
        #expect(abr.current == L.v1600)
    }

    /// The share of the estimate for switching up with `buffered` seconds (0.7 empty, growing to 0.95 at 25 s).
    private func upShare(_ buffered: Double) -> Double { 0.7 + 0.25 * min(max(buffered / 25, 0), 1) }

    @Test(
        "with a deep buffer, a wobble around its own up line or around the stay line switches at most once",
        arguments: [20.0, 24, 28])
    func noFlappingDeepBuffer(buffered: Double) throws {
        let up = 3_000_000 / upShare(buffered)
        let (rising, low, high) = try wobble(around: up, start: 2_500_000, buffered: buffered)
        #expect(low < up && high > up, "the estimate crosses the line")
        #expect(rising.switches <= 1)
        let stay = 3_000_000 / 0.95
        let (falling, _, _) = try wobble(around: stay, start: 3_000_000 / 0.7, buffered: buffered)
        #expect(falling.switches <= 1)
    }

    @Test("without the hysteresis (staying at 0.7 x the estimate too) the same wobble flaps")
    func flapsWithoutHysteresis() throws {
        var configuration = ABRConfiguration.standard
        configuration.stayFraction = configuration.bandwidthFraction
        configuration.settledRiseFactor = .infinity  // a switch up on every rise (it waits for none)
        let (abr, _, _) = try wobble(around: 3_000_000 / 0.7, start: 2_500_000, configuration: configuration)
        #expect(abr.switches > 10)
    }

    /// 8 Mbit/s for a minute, 1.5 Mbit/s for a minute, then 8 again; five minutes of 2 s segments, a 30 s forward
    /// buffer. The ladder tops at 5 Mbit/s, so no play can reach more than 5/8 = 62.5% of the link's mean while it
    /// carries 8 Mbit/s.
    private let dip = ABRSimulation(
        link: [
            .init(seconds: 60, bitsPerSecond: 8_000_000), .init(seconds: 60, bitsPerSecond: 1_500_000),
            .init(seconds: 120, bitsPerSecond: 8_000_000),
        ],
        mediaDuration: 300)

    @Test("8 -> 1.5 -> 8 Mbit/s: no stall, at most 4 switches, a mean bitrate of at least 60% of the link's mean")
    func dipScenario() throws {
        var abr = try #require(ABRMachine(variants: L.variants))
        let result = dip.run(&abr)
        #expect(result.bitrates.count == 150)
        #expect(result.stalls == 0)
        #expect(result.switches <= 4)
        #expect(result.meanBitrate >= 0.6 * result.meanLinkRate, "\(result.meanBitrate) of \(result.meanLinkRate)")
        #expect(result.bitrates.contains(800_000), "it went down during the dip")
        #expect(result.bitrates.last == 5_000_000, "and back up after it")
        #expect(result.replacedSegments > 0, "the dip's buffer replaced when the link came back")
        #expect((result.lowestBufferAfterReplacement ?? 0) > 1, "the replacement arrived with buffer to spare")
    }

    @Test(
        "dips of other lengths: no stall, at most 4 switches, 60% of the link's mean",
        arguments: [30.0, 60, 120], [20.0, 30, 60, 90])
    func dips(before: Double, dip: Double) throws {
        let simulation = ABRSimulation(
            link: [
                .init(seconds: before, bitsPerSecond: 8_000_000), .init(seconds: dip, bitsPerSecond: 1_500_000),
                .init(seconds: 1, bitsPerSecond: 8_000_000),
            ],
            mediaDuration: 300)
        var abr = try #require(ABRMachine(variants: L.variants))
        let result = simulation.run(&abr)
        #expect(result.stalls == 0)
        // The start's guess (500 kbit/s) corrected by the first download is one of them.
        #expect(abr.startedOnGuess)
        #expect(result.switches <= 4, "\(result.bitrates)")
        #expect(result.bitrates.last == 5_000_000)
        #expect(result.meanBitrate >= 0.6 * result.meanLinkRate, "\(result.meanBitrate) of \(result.meanLinkRate)")
        if let lowest = result.lowestBufferAfterReplacement { #expect(lowest > 1) }
    }

    @Test("without the rise confirmation (hls.js's estimate alone) the play stays down longer after the dip")
    func hlsEstimateAlone() throws {
        var confirmed = try #require(ABRMachine(variants: L.variants))
        var hlsOnly = try #require(
            ABRMachine(variants: L.variants, estimator: BandwidthEstimator(riseConfirmationSamples: 0)))
        let withRule = dip.run(&confirmed)
        let without = dip.run(&hlsOnly)
        #expect(without.stalls == 0)
        #expect(without.meanBitrate < withRule.meanBitrate)
        #expect(without.switches > withRule.switches, "it climbs back step by step")
    }

    @Test("the same link stalls a play pinned to 5 Mbit/s (the simulation can fail the scenario)")
    func pinnedStalls() throws {
        var abr = try #require(ABRMachine(variants: L.variants, limits: ABRLimits(pinnedVariantID: "v5000")))
        let result = dip.run(&abr)
        #expect(result.stalls > 0)
        #expect(result.switches == 0)
    }

    @Test("the simulated link: download time across a change of rate, and its mean rate")
    func link() {
        let simulation = ABRSimulation(
            link: [.init(seconds: 10, bitsPerSecond: 1_000_000), .init(seconds: 10, bitsPerSecond: 4_000_000)],
            mediaDuration: 10)
        #expect(simulation.downloadTime(bits: 2_000_000, from: 9) == 1.25)  // 1 Mbit in 1 s, then 1 in 0.25 s
        #expect(simulation.downloadTime(bits: 8_000_000, from: 30) == 2)  // the last phase lasts
        #expect(simulation.bitsDelivered(until: 15) == 30_000_000)
    }

    @Test("a feed's next item starts at the rate the previous one measured, not at the lowest variant")
    func nextItemStartsFromSharedEstimate() throws {
        let shared = SharedBandwidthEstimate()
        let fastLink = ABRSimulation(link: [.init(seconds: 1, bitsPerSecond: 8_000_000)], mediaDuration: 20)
        var first = try #require(
            ABRMachine(variants: L.variants, startEstimate: shared.current, configuration: .shortForm))
        #expect(first.measuredEstimate == nil)
        let firstPlay = fastLink.run(&first)
        #expect(firstPlay.bitrates.first == 800_000, "with no estimate: the lowest")
        shared.record(try #require(first.measuredEstimate))
        var next = try #require(
            ABRMachine(variants: L.variants, startEstimate: shared.current, configuration: .shortForm))
        let decision = next.nextSegment(duration: 2)
        #expect(decision == ABRDecision(variant: L.v5000, previous: nil, reason: .initial))
    }

    @Test("the shared estimate: recorded from many threads, read back; nonsense is ignored")
    func sharedEstimate() async {
        let shared = SharedBandwidthEstimate()
        #expect(shared.current == nil)
        await withTaskGroup(of: Void.self) { group in
            for index in 1...8 { group.addTask { shared.record(Double(index) * 1_000_000) } }
        }
        let current = shared.current ?? 0
        #expect((1...8).contains(Int(current / 1_000_000)))
        shared.record(.nan)
        shared.record(-1)
        #expect(shared.current == current)
        let abr = ABRMachine(variants: L.variants, startEstimate: shared.current)
        #expect(abr?.estimate == current)
        shared.reset()
        #expect(shared.current == nil)
        #expect(SharedBandwidthEstimate.shared !== shared)
    }
}
