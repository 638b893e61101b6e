/// Timed metadata (locked): the current item's timed metadata samples, delivered as the playhead reaches them.
extension PlayerCore {
    /// Delivers the samples at or before item time `time`: each is an event, and the item's metadata outputs get
    /// them together. A track that failed to read is reported once (a decode error naming it).
    func presentMetadata(at time: MediaTime, now: Double) {
        guard let item = currentItem, let pipeline = currentLoaded?.timedMetadata else { return }
        if state.presentation.metadataFailureReported != ObjectIdentifier(pipeline),
            let failure = pipeline.snapshot().failure
        {
            state.presentation.metadataFailureReported = ObjectIdentifier(pipeline)
            emit(.decodeError("timed metadata: \(failure)"), at: now)
        }
        let due = pipeline.take(upTo: time + Self.timeSlack)
        guard !due.isEmpty else { return }
        for sample in due { emit(.timedMetadata(sample), at: now) }
        let outputs = item.state.withLock { $0.metadataOutputs }
        for output in outputs { callback("metadataOutput", output.receive(due)) }
    }

    /// A seek landed: the item's metadata outputs are told, before what the landing delivers.
    func metadataFlushed() {
        guard let item = currentItem else { return }
        for output in item.state.withLock({ $0.metadataOutputs }) { callback("metadataOutput", output.flush()) }
    }

    /// Clock time at which the next timed metadata sample read is due, while the clock runs.
    func nextMetadataDue() -> Double? {
        guard state.timeline.isRunning, !state.seeks.isSeeking, let next = currentLoaded?.timedMetadata?.nextTime
        else { return nil }
        return clockTime(ofItemTime: next)
    }

    /// Whether the timed metadata up to clock time `clockTime` is read (or nothing more will be, or its reader
    /// waits for clock time): under the untimed clock time waits for it, so that no sample is passed unread.
    func metadataCovers(clockTime: Double) -> Bool {
        guard let loaded = currentLoaded, let pipeline = loaded.timedMetadata else { return true }
        return loaded.metadataWaitsForClock
            || pipeline.snapshot().covers(timelineTime(at: clockTime) + Self.timeSlack)
    }

    /// Whether the timed metadata reader is idle (at the end, failed, its window full, or waiting for clock time):
    /// the manual clock waits for it.
    var metadataSettled: Bool {
        guard let loaded = currentLoaded, let pipeline = loaded.timedMetadata else { return true }
        return loaded.metadataWaitsForClock || pipeline.snapshot().isSettled
    }
}
