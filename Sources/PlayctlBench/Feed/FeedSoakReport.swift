import Feed

/// What the feed soak measured, and the bounds it is held to.
public struct FeedSoakReport: Sendable {
    /// Peak resident memory allowed (the whole process: the soak runs first in it).
    public static let peakBound = 150 << 20
    /// Resident memory may grow this much after the warm-up.
    public static let growthBound = 2 << 20
    /// Swipes each side of the growth comparison, at most.
    static let window = 100

    public var swipes: Int
    /// Before the feed was made, and after it ended.
    var start = ProcessResources.empty
    var end = ProcessResources.empty
    /// Resident bytes after each swipe (free heap handed back first).
    public var resident: [Int] = []
    public var peakResidentBytes = 0
    public var summary: FeedSummary?
    public var failures = 0
    public var seconds = 0.0

    init(swipes: Int) {
        self.swipes = swipes
    }

    /// The warm-up: the first 10% of the swipes (at least one).
    public var warmUp: Int { min(max(swipes / 10, 1), resident.count) }
    /// Swipes averaged each side: up to 100, half of what follows the warm-up.
    var windowSize: Int { max(min(Self.window, (resident.count - warmUp) / 2), 1) }

    /// Mean resident memory over the swipes just after the warm-up and over the last ones (averages, so that which
    /// clip happens to be on screen does not decide), and the growth between them.
    public var earlyResident: Int { mean(resident.dropFirst(warmUp).prefix(windowSize)) }
    public var lateResident: Int { mean(resident.suffix(windowSize)) }
    public var growth: Int { lateResident - earlyResident }

    public var descriptorsBack: Bool { end.fileDescriptors == start.fileDescriptors }
    public var threadsBack: Bool { end.threads <= start.threads }
    public var startDescriptors: Int { start.fileDescriptors }
    public var endDescriptors: Int { end.fileDescriptors }
    public var startThreads: Int { start.threads }
    public var endThreads: Int { end.threads }

    /// The names of threads left over at the end.
    public var extraThreads: [String] {
        end.threadNames.filter { start.threadNames[$0.key, default: 0] < $0.value }.keys.sorted()
    }

    private func mean(_ values: some Collection<Int>) -> Int {
        values.isEmpty ? 0 : values.reduce(0, +) / values.count
    }
}
