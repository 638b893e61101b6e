import Streaming
import Testing

@Suite("ABR machine")
struct ABRMachineTests {
    private typealias L = ABRTestLadder

    private func machine(
        start: Double? = nil, limits: ABRLimits = .none, configuration: ABRConfiguration = .standard
    ) throws -> ABRMachine {
        try #require(
            ABRMachine(variants: L.variants, limits: limits, startEstimate: start, configuration: configuration))
    }

    @Test("an empty ladder has no machine")
    func empty() {
        #expect(ABRMachine(variants: []) == nil)
    }

    @Test("start: the highest variant within 0.7 x the start estimate; the lowest when none; 500 kbit/s without one")
    func start() throws {
        let cases: [(Double?, Variant)] = [
            (8_000_000, L.v5000), (5_000_000, L.v3000), (4_285_000, L.v1600), (2_200_000, L.v800),
            (1_000_000, L.v800), (nil, L.v800), (.nan, L.v800),
        ]
        for (estimate, expected) in cases {
            var abr = try machine(start: estimate)
            #expect(
                abr.nextSegment(duration: 2) == ABRDecision(variant: expected, previous: nil, reason: .initial),
                "start estimate \(String(describing: estimate))")
        }
        let abr = try machine()
        #expect(abr.estimate == 500_000)
    }

    @Test("no switch up with less than 10 s buffered, however fast the link; with 10 s, straight to the target")
    func upNeedsBuffer() throws {
        var abr = try machine()
        abr.feed(500_000, for: 4)  // a measured start: the buffer rule applies from the first switch
        let decision1 = abr.nextSegment(duration: 2)
        #expect(decision1.variant == L.v800)
        abr.feed(20_000_000, for: 20)
        abr.bufferLevel(9.9)
        let decision2 = abr.nextSegment(duration: 2)
        #expect(decision2 == ABRDecision(variant: L.v800, previous: L.v800, reason: .unchanged))
        abr.bufferLevel(10)
        let decision3 = abr.nextSegment(duration: 2)
        #expect(decision3 == ABRDecision(variant: L.v5000, previous: L.v800, reason: .bandwidthUp))
        #expect(abr.switches == 1)
    }

    @Test("a start on a guess (no download measured) is corrected by the first measurement at once, once")
    func guessCorrected() throws {
        var abr = try machine()
        #expect(abr.nextSegment(duration: 2).variant == L.v800)
        #expect(abr.startedOnGuess)
        abr.feed(20_000_000, for: 2)
        abr.bufferLevel(0.5)
        #expect(abr.nextSegment(duration: 2) == ABRDecision(variant: L.v5000, previous: L.v800, reason: .bandwidthUp))
        abr.feed(1_000_000, for: 20)
        abr.bufferLevel(12)
        #expect(abr.nextSegment(duration: 2).reason == .bandwidthDown)
        abr.feed(20_000_000, for: 20)
        abr.bufferLevel(2)
        #expect(abr.nextSegment(duration: 2).reason == .unchanged, "later changes keep the buffer rule")
        var measured = try machine(start: 8_000_000)
        measured.feed(900_000, for: 4)
        _ = measured.nextSegment(duration: 2)
        #expect(!measured.startedOnGuess)
    }

    @Test("short-form configuration: switch up with 4 s buffered")
    func shortForm() throws {
        var abr = try machine(configuration: .shortForm)
        abr.feed(500_000, for: 4)
        _ = abr.nextSegment(duration: 2)
        abr.feed(20_000_000, for: 20)
        abr.bufferLevel(3.9)
        let decision4 = abr.nextSegment(duration: 2)
        #expect(decision4.reason == .unchanged)
        abr.bufferLevel(4)
        let decision5 = abr.nextSegment(duration: 2)
        #expect(decision5.reason == .bandwidthUp)
    }

    @Test("switch down when the estimate no longer carries the variant and less than 25 s is buffered")
    func down() throws {
        var abr = try machine(start: 8_000_000)
        let decision6 = abr.nextSegment(duration: 2)
        #expect(decision6.variant == L.v5000)
        abr.feed(3_000_000, for: 120)
        abr.bufferLevel(26)
        let decision7 = abr.nextSegment(duration: 2)
        #expect(decision7.reason == .unchanged, "more than 25 s buffered keeps the quality")
        abr.bufferLevel(15)
        let decision8 = abr.nextSegment(duration: 2)
        #expect(decision8 == ABRDecision(variant: L.v1600, previous: L.v5000, reason: .bandwidthDown))
    }

    @Test("the current variant is kept while its bandwidth is within 0.95 x the estimate")
    func stay() throws {
        var abr = try machine(start: 8_000_000)
        let decision9 = abr.nextSegment(duration: 2)
        #expect(decision9.variant == L.v5000)
        abr.feed(5_300_000, for: 120)  // 5 Mbit/s <= 0.95 x 5.3: kept, though 0.7 x 5.3 would pick 3 Mbit/s
        abr.bufferLevel(15)
        let decision10 = abr.nextSegment(duration: 2)
        #expect(decision10.reason == .unchanged)
        abr.feed(5_200_000, for: 120)  // 5 > 0.95 x 5.2
        let decision11 = abr.nextSegment(duration: 2)
        #expect(decision11.reason == .bandwidthDown)
    }

    @Test("emergency: a segment that would arrive after the buffer runs dry switches to one that arrives in time")
    func emergency() throws {
        var abr = try machine(start: 8_000_000)
        let decision12 = abr.nextSegment(duration: 2)
        #expect(decision12.variant == L.v5000)
        abr.feed(5_500_000, for: 120)  // kept by the bandwidth rules (5 <= 0.95 x 5.5)
        abr.bufferLevel(1.9)  // 5 Mbit/s x 2 s / 5.5 Mbit/s = 1.82 s: in time
        let decision13 = abr.nextSegment(duration: 2)
        #expect(decision13.reason == .unchanged)
        abr.bufferLevel(1)  // in 1 s arrives bandwidth <= 2.75 Mbit/s: 1.6
        let decision14 = abr.nextSegment(duration: 2)
        #expect(decision14 == ABRDecision(variant: L.v1600, previous: L.v5000, reason: .bufferLow))
        abr.bufferLevel(0.1)  // nothing lower arrives in time: switching saves nothing, the variant stays
        let decision15 = abr.nextSegment(duration: 2)
        #expect(decision15 == ABRDecision(variant: L.v1600, previous: L.v1600, reason: .unchanged))
        abr.bufferLevel(0)  // an empty buffer (a start, a seek): the same
        #expect(abr.nextSegment(duration: 2).reason == .unchanged)
    }

    @Test("a stall drops at once and holds switching up until 20 s are buffered")
    func stall() throws {
        var abr = try machine(start: 8_000_000)
        let decision16 = abr.nextSegment(duration: 2)
        #expect(decision16.variant == L.v5000)
        let decision17 = abr.stalled()
        #expect(decision17 == ABRDecision(variant: L.v3000, previous: L.v5000, reason: .stall))
        #expect(abr.isRecoveringFromStall)
        abr.feed(8_000_000, for: 60)
        abr.bufferLevel(15)
        let decision18 = abr.nextSegment(duration: 2)
        #expect(decision18 == ABRDecision(variant: L.v3000, previous: L.v3000, reason: .unchanged))
        abr.bufferLevel(20)
        let decision19 = abr.nextSegment(duration: 2)
        #expect(decision19 == ABRDecision(variant: L.v5000, previous: L.v3000, reason: .bandwidthUp))
        #expect(!abr.isRecoveringFromStall)
        #expect(abr.stalls == 1)
    }

    @Test("a stall drops to the target when it is more than one step below")
    func stallToTarget() throws {
        var abr = try machine(start: 8_000_000)
        _ = abr.nextSegment(duration: 2)
        abr.feed(1_000_000, for: 60)
        let decision20 = abr.stalled()
        #expect(decision20?.variant == L.v800)
        let decision21 = abr.stalled()
        #expect(decision21 == nil, "already at the lowest")
        #expect(abr.stalls == 2)
    }

    @Test("limits: every decision is among the eligible; a limit excluding the current variant switches at once")
    func limits() throws {
        var abr = try machine(start: 8_000_000, limits: ABRLimits(preferredPeakBitRate: 3_000_000))
        let decision22 = abr.nextSegment(duration: 2)
        #expect(decision22.variant == L.v3000)
        let decision23 = abr.limitsChanged(.none)
        #expect(decision23 == nil)
        abr.feed(8_000_000, for: 60)
        abr.bufferLevel(15)
        let decision24 = abr.nextSegment(duration: 2)
        #expect(decision24.variant == L.v5000)
        let cellular = ABRLimits(preferredPeakBitRateForExpensiveNetworks: 2_000_000, isNetworkExpensive: true)
        let decision25 = abr.limitsChanged(cellular)
        #expect(decision25 == ABRDecision(variant: L.v1600, previous: L.v5000, reason: .limits))
        let decision26 = abr.nextSegment(duration: 2)
        #expect(decision26.reason == .unchanged)
    }

    @Test("a pinned variant wins over estimate, buffer and stalls")
    func pinned() throws {
        var abr = try machine(start: 8_000_000, limits: ABRLimits(pinnedVariantID: "v800"))
        let decision27 = abr.nextSegment(duration: 2)
        #expect(decision27 == ABRDecision(variant: L.v800, previous: nil, reason: .pinned))
        abr.feed(20_000_000, for: 60)
        abr.bufferLevel(30)
        let decision28 = abr.nextSegment(duration: 2)
        #expect(decision28.variant == L.v800)
        let repinned = abr.limitsChanged(ABRLimits(pinnedVariantID: "v3000"))
        #expect(repinned == ABRDecision(variant: L.v3000, previous: L.v800, reason: .pinned))
        abr.feed(500_000, for: 60)
        abr.bufferLevel(0.5)
        let decision29 = abr.stalled()
        #expect(decision29 == nil)
        let decision30 = abr.nextSegment(duration: 2)
        #expect(decision30.variant == L.v3000)
        let decision31 = abr.limitsChanged(.none)
        #expect(decision31 == nil)
        let decision32 = abr.nextSegment(duration: 2)
        #expect(decision32.reason == .bandwidthDown, "unpinned, the rules apply again")
    }

    @Test("history and switch count are bounded: the history keeps the last decisions only")
    func boundedHistory() throws {
        var configuration = ABRConfiguration.standard
        configuration.historyLimit = 4
        var abr = try machine(start: 8_000_000, configuration: configuration)
        _ = abr.nextSegment(duration: 2)
        abr.feed(8_000_000, for: 60)
        abr.bufferLevel(15)
        for _ in 0..<10 {
            _ = abr.limitsChanged(ABRLimits(preferredPeakBitRate: 1_000_000))
            _ = abr.limitsChanged(.none)
            _ = abr.nextSegment(duration: 2)
        }
        #expect(abr.switches == 20)
        #expect(abr.history.count == 4)
        #expect(abr.history.last?.reason == .bandwidthUp)
        #expect(abr.history.first?.reason == .limits)
    }

    @Test("the target reads AVERAGE-BANDWIDTH once two segments are buffered (hls.js), BANDWIDTH before that")
    func averageBandwidth() throws {
        var top = L.v5000
        top.averageBandwidth = 4_000_000
        // Estimate 6.5 Mbit/s: 0.7 x 6.5 = 4.55, above 1080p's average (4) and under its peak (5).
        var abr = try #require(ABRMachine(variants: [L.v800, L.v1600, L.v3000, top]))
        abr.feed(6_500_000, for: 30)
        _ = abr.nextSegment(duration: 2)
        abr.bufferLevel(3.9)
        #expect(abr.nextSegment(duration: 2).variant == L.v3000, "under two segments buffered: the peak")
        abr.bufferLevel(10)
        #expect(abr.nextSegment(duration: 2) == ABRDecision(variant: top, previous: L.v3000, reason: .bandwidthUp))
    }
}
