/// What a poster pipeline did: counts, and the p50/p95 of every stage.
public struct PosterStatistics: Sendable, Equatable {
    /// Requests made.
    public var requests: Int
    /// Requests the memory cache answered.
    public var cacheHits: Int
    /// Requests that joined work under way for the same key (de-duplicated).
    public var joined: Int
    /// Shared jobs started: one fetch and one decode each.
    public var fetches: Int
    /// Jobs that made their poster.
    public var decodes: Int
    public var failures: Int
    /// Waiters that left, and jobs stopped because their last waiter left.
    public var cancelledRequests: Int
    public var cancelledJobs: Int
    public var cache: PosterCache.Statistics
    /// Per stage (``PosterTimings/stages`` names), over the posters made (cache hits only in `total`).
    public var stages: [String: StagePercentiles]

    /// The 50th and 95th percentiles (nearest rank) of one stage, in seconds.
    public struct StagePercentiles: Sendable, Equatable {
        public var count: Int
        public var p50: Double
        public var p95: Double
    }
}

/// Stage times kept for percentiles: the most recent 4096 of each.
struct PosterSamples {
    static let limit = 4096
    private var values: [String: [Double]] = [:]
    private var next: [String: Int] = [:]

    mutating func add(_ timings: PosterTimings, fromCache: Bool) {
        for (name, seconds) in timings.stages where !fromCache || name == "total" {
            var list = values[name, default: []]
            if list.count < Self.limit {
                list.append(seconds)
            } else {
                let slot = next[name, default: 0]
                list[slot] = seconds
                next[name] = (slot + 1) % Self.limit
            }
            values[name] = list
        }
    }

    func percentiles() -> [String: PosterStatistics.StagePercentiles] {
        values.mapValues { list in
            let sorted = list.sorted()
            func rank(_ p: Double) -> Double {
                sorted.isEmpty
                    ? 0 : sorted[min(max(Int((p * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)]
            }
            return PosterStatistics.StagePercentiles(count: sorted.count, p50: rank(0.5), p95: rank(0.95))
        }
    }
}
