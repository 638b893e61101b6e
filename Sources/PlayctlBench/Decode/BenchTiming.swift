/// The timed runs of one case.
public struct BenchTiming: Sendable {
    /// What was run.
    public var benchCase: BenchCase
    /// Wall time of each timed run, in seconds, in run order.
    public var wallSeconds: [Double] = []
    /// Peak RSS of each timed run, in KiB.
    public var peakRSSKiB: [Int] = []
    /// CPU time (user plus system) of each timed run, in seconds.
    public var cpuSeconds: [Double] = []

    /// The median wall time (the mean of the two middle runs for an even count).
    public var median: Double { Self.median(wallSeconds) }
    /// The fastest run.
    public var minimum: Double { wallSeconds.min() ?? .nan }
    /// The slowest run.
    public var maximum: Double { wallSeconds.max() ?? .nan }
    /// The highest peak RSS of any run.
    public var peakRSS: Int { peakRSSKiB.max() ?? 0 }
    /// The median CPU time: less sensitive than wall time to other processes competing for the CPUs.
    public var medianCPU: Double { Self.median(cpuSeconds) }

    /// The median of `values`: the middle one, or the mean of the two middle ones for an even count; NaN when empty.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
