import Feed
import PlayctlCLI

/// What the feed soak measured, and the bounds it is held to.
public struct FeedSoakReport: Sendable {
    /// Peak resident memory allowed (the whole process: the soak runs first in it).
    public static let peakBound = 150 << 20
    /// Resident memory may grow this much after the warm-up.
    public static let growthBound = 2 << 20
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

    /// The warm-up: the first 30% of the swipes (at least one), three passes through the 100-item feed. The
    /// process's live heap (malloc's bytes in use, and the resident memory with it) still rose for about 300
    /// swipes: in a 3000-swipe run its means over 100 swipes went 112, 117, 120, 121 MB, then stayed within
    /// 115-126 MB to the end with no trend (least squares from swipe 300: -0.4 kB a swipe); taking the first 10%
    /// compared the end of the warm-up with the end, 1.7-4.4 MB from run to run.
    public var warmUp: Int { min(max(swipes * 3 / 10, 1), resident.count) }
    /// Swipes averaged each side: half of what follows the warm-up. Which clips are on screen moves the mean over
    /// 100 swipes by 3 MB either way (1080p frames against 720p), the same at the same place of the trace in every
    /// run; 350 swipes each take in three passes of the feed.
    var windowSize: Int { max((resident.count - warmUp) / 2, 1) }

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
