/// The host clock: real (monotonic) time. Background work is applied as soon as it happens; when several frames
/// are due at once only the newest is shown (the others are counted as dropped); a decoder that falls behind the
/// clock stalls playback. The engine never waits for app callbacks.
struct HostPacing: Pacing {
    var presentsEveryFrame: Bool { false }
    var waitsForCallbacks: Bool { false }
    var settlesAtAdvances: Bool { false }
    var hasRealTimeDeadlines: Bool { true }

    func now(_ clock: ClockState) -> Double { HostTime.now() - clock.origin }

    /// Passes in a row that may look again at once before the engine waits anyway, and how long it waits then.
    static let maximumPassesWithoutWait = 100
    static let minimumWait = 0.001
    /// A deadline closer than this is met by looking again at once rather than by a timed wait.
    static let lookAgainWithin = 0.0005

    /// Seconds between buffer reports of an item fed over a link while its bytes arrive.
    static let remoteBufferInterval = 0.1

    func iterate(_ core: PlayerCore) {
        let seen = core.signals
        core.applyLoadResults()
        core.applyLanding(requireSettled: false)
        core.followAudioDevice(at: core.clockNow())
        core.presentAndReport(at: core.clockNow(), detectingStalls: true)
        core.performCollectedWork()
        if core.state.stopped { return }
        if let wait = nextWait(core, now: core.clockNow()) {
            // A deadline under half a millisecond away is met by looking again at once (a timed wait may oversleep
            // by more on a loaded machine). But the engine holds its lock between passes: a deadline that stays due
            // (an audio device clock waiting for samples while host time runs on) once kept it looking for good,
            // and the audio pipeline, blocked on the lock, could not hand over the samples that would have moved
            // the clock (a livelock CI's ThreadSanitizer pass hit with a PulseAudio daemon). So after a hundred such
            // passes in a row it waits a millisecond, releasing the lock.
            let timed = wait > Self.lookAgainWithin
            if timed || core.state.clock.passesWithoutWait >= Self.maximumPassesWithoutWait {
                core.state.clock.passesWithoutWait = 0
                core.waitForChange(timeout: timed ? wait : Self.minimumWait, since: seen)
            } else {
                core.state.clock.passesWithoutWait += 1
            }
        } else {
            core.state.clock.passesWithoutWait = 0
            core.waitForChange(timeout: nil, since: seen)
        }
    }

    /// Seconds until the engine must look again (the next frame, the end, an observer, a possible stall), or nil
    /// to wait for a signal.
    private func nextWait(_ core: PlayerCore, now: Double) -> Double? {
        guard let loaded = core.currentLoaded else { return nil }
        var deadline: Double?
        func consider(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        // An item fed over a link: its buffer changes as bytes arrive, which wakes nobody; look ten times a second
        // until every byte is there.
        if let remote = loaded.remote, !remote.progress.isComplete { consider(now + Self.remoteBufferInterval) }
        guard core.state.timeline.isRunning else { return deadline.map { max($0 - now, 0) } }
        consider(core.nextFrameDue())
        consider(core.endDue())
        consider(core.nextObserverDue())
        consider(core.nextCueChangeDue())
        if loaded.video == nil || core.writesToDevice { consider(now + 0.02) }  // audio to write, a clock to follow
        if let shown = core.state.presentation.lastFrameTime {
            consider(core.clockTime(ofItemTime: shown) + loaded.frameInterval * 1.5)
        }
        return deadline.map { max($0 - now, 0) }
    }
}
