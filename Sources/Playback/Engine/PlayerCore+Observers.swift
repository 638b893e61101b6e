/// Time observers (locked): the observer set decides which fire; each fire is an event and a callback.
extension PlayerCore {
    /// Fires the observers whose time has come at clock time `now`.
    func tickObservers(at now: Double) {
        let moving = state.timeline.isRunning && currentLoaded != nil && !state.seeks.isSeeking
        fire(state.observers.tick(at: moving ? timelineTime(at: now) : nil), at: now)
    }

    /// Fires every periodic observer (playback started or stopped).
    func fireAllPeriodicObservers(at now: Double) {
        fire(state.observers.fireAll(at: reportedTime(at: now)), at: now)
    }

    /// The playhead jumped (a seek landed): every periodic observer fires.
    func observersJumped(at now: Double) {
        fire(state.observers.jumped(to: timelineTime(at: now), reported: reportedTime(at: now)), at: now)
    }

    /// Clock time at which the next observer is due, while playing.
    func nextObserverDue() -> Double? {
        guard state.timeline.isRunning, !state.observers.isEmpty else { return nil }
        return state.observers.nextDue(after: timelineTime(at: clockNow())).map { clockTime(ofItemTime: $0) }
    }

    private func fire(_ fires: [TimeObserverSet.Fire], at now: Double) {
        for fire in fires {
            emit(fire.kind, at: now)
            let (block, time) = (fire.block, fire.time)
            callback(fire.label) { block(time) }
        }
    }
}
