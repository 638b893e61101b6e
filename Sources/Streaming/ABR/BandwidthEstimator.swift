import Foundation

/// An estimate of the link's throughput from the segments it delivered: two exponentially weighted moving averages
/// (EWMA) of each segment's throughput, one fast and one slow, weighted by the seconds each download took; the
/// estimate is the lower of the two, so a drop shows at once (the fast one falls) while a rise must last (the slow
/// one must rise too). This is hls.js's scheme (`abrEwmaFastVoD` 3 s, `abrEwmaSlowVoD` 9 s, `abrEwmaDefaultEstimate`
/// 500 kbit/s); see docs/streaming-abr.md.
///
/// One addition: a rise is also believed once the last ``riseConfirmationSamples`` (3) downloads all showed it. The
/// estimate is the larger of the EWMAs' lower one and the lowest throughput of those last downloads. Why: weighted
/// by download time, the segments of a low variant teach the averages little (at 0.8 Mbit/s on an 8 Mbit/s link
/// each 2 s segment weighs 0.2 s, so the slow average needs about 45 of them to go halfway), and a play that went
/// down in a dip would stay down for minutes after it. A single fast download cannot raise the estimate; a drop
/// is seen as soon as with hls.js (the lowest of the last downloads falls at once).
///
/// A pure value: no clock, no threads. Feed it with ``sample(bytes:seconds:)`` when a segment has arrived.
public struct BandwidthEstimator: Sendable, Equatable {
    /// The half-life, in seconds of download time, of the fast average (hls.js VoD: 3 s).
    public let fastHalfLife: Double
    /// The half-life, in seconds of download time, of the slow average (hls.js VoD: 9 s).
    public let slowHalfLife: Double
    /// Downloads smaller than this many bytes are ignored: their time is mostly the request's latency, not the
    /// link's rate (16 KiB by default).
    public let minimumBytes: Int
    /// A download is counted as taking at least this long (hls.js's `minDelayMs`, 50 ms), so a segment that
    /// arrives in no measurable time (a cache, a clock's tick) does not read as an unbounded rate.
    public let minimumSeconds: Double
    /// How many of the last downloads, all faster than the averages say, make the estimate rise to the slowest of
    /// them; 0 turns the rule off (hls.js's estimate alone).
    public let riseConfirmationSamples: Int
    /// What ``estimate(default:)`` answers before the first sample when given no other default (hls.js: 500 kbit/s).
    public static let defaultEstimate: Double = 500_000

    private var fast: Average
    private var slow: Average
    /// The throughput of the last ``riseConfirmationSamples`` counted downloads, oldest first.
    private var recent: [Double] = []
    /// How many samples were counted (ignored ones are not).
    public private(set) var sampleCount = 0

    /// - Parameters:
    ///   - fastHalfLife: seconds of download time after which a sample weighs half in the fast average (> 0).
    ///   - slowHalfLife: the same for the slow average (> 0).
    ///   - minimumBytes: smaller downloads are ignored.
    ///   - minimumSeconds: the least time a download is counted as taking.
    ///   - riseConfirmationSamples: how many downloads confirm a rise (0 to 16; 0 is hls.js's estimate alone).
    /// Half-lives that are not positive and finite are taken as 3 s and 9 s.
    public init(
        fastHalfLife: Double = 3, slowHalfLife: Double = 9, minimumBytes: Int = 16_384, minimumSeconds: Double = 0.05,
        riseConfirmationSamples: Int = 3
    ) {
        self.fastHalfLife = fastHalfLife.isFinite && fastHalfLife > 0 ? fastHalfLife : 3
        self.slowHalfLife = slowHalfLife.isFinite && slowHalfLife > 0 ? slowHalfLife : 9
        self.minimumBytes = max(0, minimumBytes)
        self.minimumSeconds = minimumSeconds.isFinite && minimumSeconds > 0 ? minimumSeconds : 0.05
        self.riseConfirmationSamples = min(16, max(0, riseConfirmationSamples))
        fast = Average(halfLife: self.fastHalfLife)
        slow = Average(halfLife: self.slowHalfLife)
    }

    /// Counts one download of `bytes` that took `seconds`. Returns whether it was counted: downloads smaller than
    /// ``minimumBytes`` and nonsense (negative, NaN or infinite values) are ignored.
    @discardableResult
    public mutating func sample(bytes: Int, seconds: Double) -> Bool {
        guard bytes >= minimumBytes, bytes > 0, seconds.isFinite, seconds >= 0 else { return false }
        let weight = max(seconds, minimumSeconds)
        let bitsPerSecond = Double(bytes) * 8 / weight
        fast.add(bitsPerSecond, weight: weight)
        slow.add(bitsPerSecond, weight: weight)
        if riseConfirmationSamples > 0 {
            recent.append(bitsPerSecond)
            if recent.count > riseConfirmationSamples { recent.removeFirst(recent.count - riseConfirmationSamples) }
        }
        sampleCount += 1
        return true
    }

    /// The estimate in bits per second: the lower of ``fastEstimate`` and ``slowEstimate``, or the slowest of the
    /// last ``riseConfirmationSamples`` downloads when that is higher; nil before the first counted sample.
    public var estimate: Double? {
        guard let fast = fastEstimate, let slow = slowEstimate else { return nil }
        let averages = min(fast, slow)
        guard riseConfirmationSamples > 0, recent.count == riseConfirmationSamples, let confirmed = recent.min() else {
            return averages
        }
        return max(averages, confirmed)
    }

    /// The slowest of the last ``riseConfirmationSamples`` (3) downloads: what the link carried lately, without the
    /// averages' memory; nil until that many are counted, and with ``riseConfirmationSamples`` 0.
    public var slowestRecent: Double? {
        riseConfirmationSamples > 0 && recent.count == riseConfirmationSamples ? recent.min() : nil
    }

    /// Forgets every sample: the next one is the estimate (hls.js's `resetEstimator`, after an abandoned download
    /// showed the averages to be far above the link).
    public mutating func reset() {
        fast = Average(halfLife: fastHalfLife)
        slow = Average(halfLife: slowHalfLife)
        recent = []
        sampleCount = 0
    }

    /// The estimate, or `defaultValue` (500 kbit/s unless given) before the first counted sample.
    public func estimate(default defaultValue: Double = BandwidthEstimator.defaultEstimate) -> Double {
        estimate ?? defaultValue
    }

    /// The fast average alone (bits per second); nil before the first counted sample.
    public var fastEstimate: Double? { fast.value }
    /// The slow average alone (bits per second); nil before the first counted sample.
    public var slowEstimate: Double? { slow.value }
}

/// One EWMA whose decay is per second of weight: a sample of weight `w` keeps `0.5^(w / halfLife)` of the old value.
/// The sum starts at zero, so it is divided by the weight it has gathered (`1 - 0.5^(total / halfLife)`), which
/// makes the first sample the estimate itself rather than a fraction of it.
private struct Average: Sendable, Equatable {
    let halfLife: Double
    var sum: Double = 0
    var totalWeight: Double = 0

    init(halfLife: Double) { self.halfLife = halfLife }

    mutating func add(_ value: Double, weight: Double) {
        let kept = pow(0.5, weight / halfLife)
        sum = sum * kept + value * (1 - kept)
        totalWeight += weight
    }

    var value: Double? {
        guard totalWeight > 0 else { return nil }
        let gathered = 1 - pow(0.5, totalWeight / halfLife)
        return gathered > 0 ? sum / gathered : nil
    }
}
