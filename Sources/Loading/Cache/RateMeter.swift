/// The download rate of one resource: bytes per second over the last ``window`` seconds of transfer, in the
/// transport's time (real time for HTTP, clock time for a simulated link). A pause of every transfer starts a new
/// measurement, so waiting while the read-ahead is full does not look like a slow link. Adding and reading are O(1)
/// amortized (a fast link delivers thousands of pieces a second, and the rate is read at every decision).
struct RateMeter {
    static let window = 2.0
    private var samples: [(time: Double, bytes: Int64)] = []
    /// The first sample still in the window, and the bytes of the samples after it.
    private var head = 0
    private var bytesAfterHead: Int64 = 0
    /// The rate measured before the last break, reported until the new measurement has two samples.
    private var previous: Double?
    /// Since the measurement began (the first bytes after a break): its first time, its last, and the bytes that
    /// came after the first piece (the first piece's bytes took an unknown time before it).
    private var measurementStart: Double?
    private var measurementEnd = 0.0
    private var measurementBytes: Int64 = 0

    /// `bytes` arrived at `time`.
    mutating func add(_ bytes: Int, at time: Double) {
        if measurementStart == nil {
            measurementStart = time
        } else {
            measurementBytes += Int64(bytes)
        }
        measurementEnd = time
        if head < samples.count { bytesAfterHead += Int64(bytes) }
        samples.append((time, Int64(bytes)))
        let horizon = time - Self.window
        // Keep one sample at or before the horizon: the window's start.
        while head + 1 < samples.count, samples[head + 1].time < horizon {
            head += 1
            bytesAfterHead -= samples[head].bytes
        }
        if head > 1024 && head * 2 > samples.count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// Transfers stopped (paused, finished): the next bytes start a new measurement. Returns the one that ended:
    /// the bytes that came after its first piece and the seconds they took (nil when they took no time).
    @discardableResult
    mutating func pause() -> (bytes: Int64, seconds: Double)? {
        if let rate = measured { previous = rate }
        samples.removeAll()
        head = 0
        bytesAfterHead = 0
        defer {
            measurementStart = nil
            measurementBytes = 0
        }
        guard let start = measurementStart, measurementEnd > start, measurementBytes > 0 else { return nil }
        return (measurementBytes, measurementEnd - start)
    }

    /// Bytes per second, or nil before anything was measured.
    var bytesPerSecond: Double? { measured ?? previous }

    private var measured: Double? {
        guard samples.count - head >= 2, let last = samples.last else { return nil }
        let first = samples[head]
        guard last.time > first.time else { return nil }
        return Double(bytesAfterHead) / (last.time - first.time)
    }
}
