import Foundation

/// How a player's time moves: one small strategy per ``ClockMode``, run by the engine thread.
///
/// Each pass (``iterate(_:)``) is called with the engine's lock held; it applies background results (loads,
/// seek landings), presents what is due, reports buffering, stalls and ends, fires time observers, and then waits
/// (the lock released) until the next deadline or signal. The strategies differ in what "now" is, in whether late
/// frames are dropped, and in when background work counts.
protocol Pacing: Sendable {
    /// Clock time in seconds since the player was created.
    func now(_ clock: ClockState) -> Double
    /// Whether every frame is shown (virtual clocks) rather than only the newest of those due (host clock).
    var presentsEveryFrame: Bool { get }
    /// Whether the engine waits for the callbacks it hands out before moving on, so that what they do takes
    /// effect at the clock time they were called for (virtual clocks: the same trace on every run).
    var waitsForCallbacks: Bool { get }
    /// Whether background work is applied only at clock advances, once the decoders settle (manual clock).
    var settlesAtAdvances: Bool { get }
    /// Whether the playhead moves in real time, so that media must arrive before it (host clock): a stream session
    /// is told where it is, to give up downloads too slow for it.
    var hasRealTimeDeadlines: Bool { get }
    /// One pass of the engine thread (locked on entry and on return).
    func iterate(_ core: PlayerCore)
}

extension ClockMode {
    /// The strategy for this clock.
    var pacing: any Pacing {
        switch self {
        case .host: return HostPacing()
        case .manual: return ManualPacing()
        case .untimed: return UntimedPacing()
        }
    }
}

extension PlayerCore {
    /// Engine thread, locked: the work of every pass, at clock time `now`: present what is due, report buffering
    /// and stalls, fire time observers, then report the end (see ``reachEnd(at:)``).
    func presentAndReport(at now: Double, detectingStalls: Bool) {
        present(at: now)
        updateBuffering(at: now)
        if detectingStalls { detectStall(at: now) }
        tickObservers(at: now)
        reachEnd(at: now)
    }

    /// Engine thread, locked: reports the end of the item if the playhead is at it, after the time observers due at
    /// `now` were fired. Ties in virtual time are decided here, the same on every run: under the manual and untimed
    /// clocks the engine first waits for the callbacks handed out so far (the observers due at this instant, and
    /// what they caused), so that what they do (a seek, a pause, a new item) takes effect before the end at the
    /// same instant is looked at. A seek asked for at the end instant is applied and playback goes on from its
    /// target; a pause there means the end is reported once playback resumes.
    func reachEnd(at now: Double) {
        if pacing.waitsForCallbacks {
            performCollectedWork()
            awaitCallbacks()
            if state.stopped { return }
        }
        checkEnd(at: now)
    }

    /// Engine thread, locked: does the collected work and waits until woken or `timeout` seconds pass (forever
    /// when nil), unless something was signalled since `seen` (a value of ``signals`` read earlier in the same
    /// pass, with the lock held): then it returns at once, so a signal sent while the lock was released on the
    /// way (to do work, or to let callbacks run) is never lost. Work is always done before waiting: a load the
    /// engine waits for may not have started yet.
    func waitForChange(timeout: Double?, since seen: UInt64) {
        performCollectedWork()
        if state.stopped || signals != seen { return }
        if let timeout {
            _ = condition.wait(until: Date(timeIntervalSinceNow: timeout))
        } else {
            condition.wait()
        }
    }

    /// Clock time at which the next queued frame is due, if one is queued and the clock runs.
    func nextFrameDue() -> Double? {
        guard state.timeline.isRunning, let first = currentLoaded?.video?.snapshot().first else { return nil }
        return clockTime(ofItemTime: first)
    }
}
