import Testing

@testable import PlayctlCLI

/// How the soak judges its memory: the floor of the second half of its checkpoints against the first half's.
@Suite("playctl soak: the growth it judges")
struct SoakReportTests {
    static func report(_ megabytes: [Double]) -> SoakReport {
        var report = SoakReport(swaps: 200, seeks: 200, clips: 6)
        report.checkpoints = megabytes.map { Int($0 * Double(1 << 20)) + (60 << 20) }
        return report
    }

    @Test("a leak raises the floor and fails; fragmentation's spikes either way pass")
    func floorAgainstFloor() {
        // 0.5 MB more at each of 10 checkpoints: 2.5 MB from one floor to the other.
        let leaking = Self.report((0..<10).map { Double($0) * 0.5 })
        #expect(leaking.residentGrowth > 2 << 20)
        #expect(leaking.problems.contains { $0.hasPrefix("resident memory grew by") })
        // Readings of one run that did not leak (seen): single readings up to 1.8 MB over the first.
        let noisy = Self.report([0, 0.25, 0.36, 1.52, 1.73, 0.52, 1.78, 0.61, 1.09, 1.29])
        #expect(noisy.residentGrowth < 1 << 20)
        #expect(noisy.problems.isEmpty, "\(noisy.problems)")
        // Fewer than two checkpoints: nothing to compare.
        #expect(Self.report([5]).residentGrowth == 0)
    }
}
