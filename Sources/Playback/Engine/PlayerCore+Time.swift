/// Clock and playhead (locked).
extension PlayerCore {
    /// Clock time in seconds since the player was created (virtual under manual and untimed clocks).
    func clockNow() -> Double { pacing.now(state.clock) }

    var currentItem: PlayerItem? { state.queue.current }
    var currentLoaded: LoadedItem? { state.queue.currentLoaded }
    func loaded(_ item: PlayerItem) -> LoadedItem? { state.queue.loaded(item) }

    /// The current item's duration, if known.
    var currentDuration: MediaTime? {
        guard let loaded = currentLoaded, loaded.duration.isNumeric else { return nil }
        return loaded.duration
    }

    /// The playhead from the timeline alone (no pending seek), clamped to the item.
    func timelineTime(at now: Double) -> MediaTime {
        // A sound server's device leads: the time heard now (`now` is always the present here).
        var time = followedTime().map { MediaTime(seconds: $0) } ?? state.timeline.itemTime(at: now)
        if let end = playableEnd(), time > end { time = end }
        return max(time, .zero)
    }

    /// What `currentTime()` reports: a pending seek's target from the moment it was asked for.
    func reportedTime(at now: Double) -> MediaTime {
        state.seeks.pendingTarget ?? timelineTime(at: now)
    }

    /// The clock time at which the playhead reaches `time` (while the clock runs).
    func clockTime(ofItemTime time: MediaTime) -> Double {
        state.timeline.clockTime(ofItemTime: time)
    }

    /// Where the playhead stops: the item's duration, or later when frames or audio run past it (damaged or odd
    /// files whose container understates the duration): the latest media shown or decoded so far.
    func playableEnd() -> MediaTime? {
        guard let duration = currentDuration else { return nil }
        guard let loaded = currentLoaded else { return duration }
        return mediaEnd(after: duration, loaded)
    }

    /// `item`'s current time: the player's, while it is the current item.
    func currentTime(of item: PlayerItem) -> MediaTime {
        read { core in
            guard item === core.currentItem else { return item.state.withLock { $0.currentTime } }
            return core.reportedTime(at: core.clockNow())
        }
    }

    /// Performs what the time-control machine asked for; a rate change is reported with `reason`.
    func perform(
        _ actions: [TimeControlStateMachine.Action], at now: Double? = nil,
        reason: RateChangeReason = .setRateCalled
    ) {
        let time = now ?? clockNow()
        for action in actions {
            switch action {
            case .emitRate(let rate, let previous):
                state.rateChangeReason = reason
                emit(.rate(rate, previous: previous), at: time)
            case .emitTimeControlStatus(let status, let reason):
                emit(.timeControlStatus(status, reason: reason), at: time)
                fireAllPeriodicObservers(at: time)
            case .startClock(let rate):
                state.timeline.start(from: timelineTime(at: time), at: time, rate: Double(rate))
            case .setClockRate(let rate):
                state.timeline.setRate(Double(rate), from: timelineTime(at: time), at: time)
            case .stopClock:
                state.timeline.stop(at: timelineTime(at: time), clock: time)
            case .advanceToNextItem:
                advanceToNextItem(at: time, reason: .itemEnded)
            }
        }
        // The audio is time-stretched for the clock's rate (also for an item that just became current).
        applyAudioRate()
    }

    /// Makes the current item's audio for the clock's rate, its pitch kept or following the rate as the item's
    /// time-pitch algorithm says.
    func applyAudioRate() {
        let keepsPitch = currentItem?.state.withLock { $0.audioTimePitchAlgorithm.keepsPitch } ?? true
        currentLoaded?.audio?.setRate(state.timeline.rate, keepsPitch: keepsPitch)
    }
}
