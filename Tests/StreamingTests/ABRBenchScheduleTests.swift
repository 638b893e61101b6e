import Streaming
import Testing

/// `playctl-bench run --abr`'s schedule in the simulation: the long ladder's rates (peak and average, as its master
/// playlist gives them), 60 s of 2 s segments, a link that carries 95% of 8, 1.5 and 8 Mbit/s in payload with the
/// changes at 10 s and 30 s. Issue #27's figure for `playctl-bench run --abr`: no stall, at most 4 switches, a
/// played bit rate of at least 60% of the link's mean.
@Suite("ABR: the benchmark's schedule, simulated")
struct ABRBenchScheduleTests {
    static let ladder = [
        variant("0", 1_011_440, 950_051, 640, 360), variant("1", 1_846_912, 1_767_350, 960, 540),
        variant("2", 3_321_584, 3_197_779, 1280, 720), variant("3", 5_297_088, 5_247_105, 1920, 1080),
    ]

    static func variant(_ id: String, _ peak: Int, _ average: Int, _ width: Int, _ height: Int) -> Variant {
        Variant(
            id: id, bandwidth: peak, averageBandwidth: average, resolution: Resolution(width: width, height: height),
            media: .playlist(url: "https://example.com/v\(id).m3u8"))
    }

    /// The schedule (the stream session's fast switching included); `after`: the payload rate after the dip.
    static func schedule(checksDownloads: Bool = true, after: Double = 7_600_000) -> ABRSimulation {
        ABRSimulation(
            link: [
                .init(seconds: 10, bitsPerSecond: 7_600_000), .init(seconds: 20, bitsPerSecond: 1_425_000),
                .init(seconds: 30, bitsPerSecond: after),
            ],
            mediaDuration: 60, checksDownloads: checksDownloads)
    }

    /// The played bit rate over the link's mean across the play's 60 s of wall time, as the benchmark counts it.
    static func playedShare(_ result: ABRSimulation.Result, of simulation: ABRSimulation) -> Double {
        result.meanBitrate / (simulation.bitsDelivered(until: 60) / 60)
    }

    /// The rules of before the deep-buffer ones: a fixed 0.7 share, no replacement on a switch up, no wait for a
    /// rise to settle.
    static let withoutDeepBufferRules: ABRConfiguration = {
        var configuration = ABRConfiguration.standard
        configuration.bandwidthFractionAtFullBuffer = configuration.bandwidthFraction
        configuration.retainedSegmentsOnSwitchUp = nil
        configuration.settledRiseFactor = .infinity
        return configuration
    }()

    @Test("issue #27's figure: no stall, at most 4 switches, at least 60% of the link's mean")
    func issueTargets() throws {
        let checked = Self.schedule()
        var abr = try #require(ABRMachine(variants: Self.ladder))
        let result = checked.run(&abr)
        #expect(result.bitrates.count == 30)
        #expect(result.stalls == 0)
        #expect(result.switches <= 4)
        let share = Self.playedShare(result, of: checked)
        #expect(share >= 0.60, "\(share)")
        // The decisions: 360p (the guess), 1080p from 1, 360p from 8 by the abandon rule; when the link is back and
        // the estimate's rise has settled, 1080p from 19, which replaced the dip's 360p past the 3.5 segments kept.
        #expect(result.switches == 3)
        #expect(abr.history.contains { $0.reason == .downloadAbandoned && $0.variant.id == "0" })
        #expect(result.bitrates[0] == 950_051)
        #expect(result.bitrates[1...7].allSatisfy { $0 == 5_247_105 })
        let back = try #require(result.bitrates[8...].firstIndex { $0 != 950_051 })
        #expect(back == 19, "1080p back at segment 19")
        #expect(result.bitrates[8..<back].allSatisfy { $0 == 950_051 })
        #expect(result.bitrates[back...].allSatisfy { $0 == 5_247_105 }, "1080p from there to the end")
        #expect(result.replacedSegments > 0)
        #expect((result.lowestBufferAfterReplacement ?? 0) > 1, "a replacement never ran the buffer near dry")

        // Without the deep-buffer rules the same schedule stays under 60%: the dip's 360p plays out.
        var before = try #require(ABRMachine(variants: Self.ladder, configuration: Self.withoutDeepBufferRules))
        let old = checked.run(&before)
        #expect(old.stalls == 0)
        #expect(Self.playedShare(old, of: checked) < 0.60)
    }

    @Test("a link carrying 7.42 Mbit/s after the dip (the real run's estimate): 1080p comes back, not 720p")
    func realRunEstimate() throws {
        let slower = Self.schedule(after: 7_420_000)
        var abr = try #require(ABRMachine(variants: Self.ladder))
        let result = slower.run(&abr)
        #expect(result.stalls == 0)
        #expect(result.switches <= 4)
        #expect(result.bitrates.last == 5_247_105)
        #expect(Self.playedShare(result, of: slower) >= 0.60)
        // With a fixed 0.7: 5.25 Mbit/s needs 7.50 of estimate, and the play comes back at 720p.
        var fixed = try #require(ABRMachine(variants: Self.ladder, configuration: Self.withoutDeepBufferRules))
        let old = slower.run(&fixed)
        #expect(old.bitrates.last == 3_197_779)
    }

    @Test("without the abandon rule, the 1080p segment in flight when the link drops arrives after the buffer ran dry")
    func withoutAbandonRule() throws {
        var plain = try #require(ABRMachine(variants: Self.ladder))
        let without = Self.schedule(checksDownloads: false).run(&plain)
        #expect(without.stalls >= 1)
        #expect(!plain.history.contains { $0.reason == .downloadAbandoned })
    }
}
