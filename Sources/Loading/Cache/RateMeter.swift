/// The download rate of one resource: bytes per second over the last ``window`` seconds of transfer, in the
/// transport's time (real time for HTTP, clock time for a simulated link). A pause of every transfer starts a new
/// measurement, so waiting while the read-ahead is full does not look like a slow link.
struct RateMeter {
    static let window = 2.0
    private var samples: [(time: Double, bytes: Int64)] = []
    /// The rate measured before the last break, reported until the new measurement has two samples.
    private var previous: Double?

    /// `bytes` arrived at `time`.
    mutating func add(_ bytes: Int, at time: Double) {
        samples.append((time, Int64(bytes)))
        let horizon = time - Self.window
        if let cut = samples.firstIndex(where: { $0.time >= horizon }), cut > 1 { samples.removeFirst(cut - 1) }
    }

    /// Transfers stopped (paused, finished): the next bytes start a new measurement.
    mutating func pause() {
        if let rate = measured { previous = rate }
        samples.removeAll()
    }

    /// Bytes per second, or nil before anything was measured.
    var bytesPerSecond: Double? { measured ?? previous }

    private var measured: Double? {
        guard samples.count >= 2, let first = samples.first, let last = samples.last, last.time > first.time
        else { return nil }
        let bytes = samples.dropFirst().reduce(Int64(0)) { $0 + $1.bytes }
        return Double(bytes) / (last.time - first.time)
    }
}
