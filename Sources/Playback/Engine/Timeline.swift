/// Where the playhead is, as a value: item time = `anchorItemTime + (clock - anchorClock) * rate` while the clock
/// runs, `anchorItemTime` while it is stopped.
///
/// Clock times are seconds of the player's clock (host, manual or untimed). The driver clamps what it reads to the
/// item (``PlayerCore/timelineTime(at:)``); the timeline itself is plain arithmetic.
struct Timeline: Sendable {
    /// The item time at `anchorClock`.
    private(set) var anchorItemTime: MediaTime = .zero
    /// The clock time of the anchor.
    private(set) var anchorClock: Double = 0
    /// Whether the playhead moves with the clock.
    private(set) var isRunning = false
    /// Item seconds per clock second while running.
    private(set) var rate: Double = 1

    /// The unclamped item time at clock time `now`.
    func itemTime(at now: Double) -> MediaTime {
        guard isRunning else { return anchorItemTime }
        return anchorItemTime + MediaTime(seconds: (now - anchorClock) * rate)
    }

    /// The clock time at which the playhead reaches `time` (while running; rates near zero count as tiny).
    func clockTime(ofItemTime time: MediaTime) -> Double {
        anchorClock + (time - anchorItemTime).seconds / max(rate, 1e-9)
    }

    /// Anchors the playhead at `time` at clock time `now`, running or not as before.
    mutating func anchor(_ time: MediaTime, at now: Double) {
        anchorItemTime = time
        anchorClock = now
    }

    /// Starts the playhead moving from `time` at clock time `now`, at `rate`.
    mutating func start(from time: MediaTime, at now: Double, rate: Double) {
        anchor(time, at: now)
        isRunning = true
        self.rate = rate
    }

    /// Changes the rate from clock time `now`, where the playhead is at `time`.
    mutating func setRate(_ rate: Double, from time: MediaTime, at now: Double) {
        anchor(time, at: now)
        self.rate = rate
    }

    /// Stops the playhead at `time` (where it is at clock time `now`).
    mutating func stop(at time: MediaTime, clock now: Double) {
        anchor(time, at: now)
        isRunning = false
    }
}
