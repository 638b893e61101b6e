import Streaming
import Testing

/// `playctl-bench run --abr`'s schedule in the simulation: the long ladder's rates (peak and average, as its master
/// playlist gives them), 60 s of 2 s segments, a link that carries 95% of 8, 1.5 and 8 Mbit/s in payload with the
/// changes at 10 s and 30 s.
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

    /// The schedule, with the stream session's replacement of a lower-quality buffer past 10 s on a switch up.
    static func schedule(checksDownloads: Bool) -> ABRSimulation {
        ABRSimulation(
            link: [
                .init(seconds: 10, bitsPerSecond: 7_600_000), .init(seconds: 20, bitsPerSecond: 1_425_000),
                .init(seconds: 30, bitsPerSecond: 7_600_000),
            ],
            mediaDuration: 60, checksDownloads: checksDownloads, retainedOnSwitchUp: 10)
    }

    /// The played bit rate over the link's mean across the play's 60 s of wall time, as the benchmark counts it.
    static func playedShare(_ result: ABRSimulation.Result, of simulation: ABRSimulation) -> Double {
        result.meanBitrate / (simulation.bitsDelivered(until: 60) / 60)
    }

    @Test("the abandon rule turns the dip's stall into none, in at most 4 switches; the share played is the bench's")
    func abandonRule() throws {
        let checked = Self.schedule(checksDownloads: true)
        var abr = try #require(ABRMachine(variants: Self.ladder))
        let result = checked.run(&abr)
        #expect(result.bitrates.count == 30)
        #expect(result.stalls == 0)
        #expect(result.switches <= 4)
        #expect(abr.history.contains { $0.reason == .downloadAbandoned && $0.variant.id == "0" })
        // Segments 8-20 at 360p: the dip's, then the 10 s retained when the buffer is replaced at 1080p from 21.
        #expect(result.bitrates[8...20].allSatisfy { $0 == 950_051 })
        #expect(result.bitrates[21...].allSatisfy { $0 == 5_247_105 }, "1080p from segment 21 to the end")
        // 58% of the link's mean over the play (docs/streaming-abr.md: the real run came back at 720p, 45%).
        let share = Self.playedShare(result, of: checked)
        #expect(share > 0.55 && share < 0.60, "\(share)")

        let unchecked = Self.schedule(checksDownloads: false)
        var plain = try #require(ABRMachine(variants: Self.ladder))
        let without = unchecked.run(&plain)
        #expect(without.stalls >= 1, "the 1080p segment in flight when the link drops arrives too late")
        #expect(!plain.history.contains { $0.reason == .downloadAbandoned })
    }
}
