/// Timed text (locked): the cues of the current item's selected subtitles, shown as the playhead reaches them.
extension PlayerCore {
    /// Shows the cues due at item time `time`: when what is shown changes, each cue that begins is an event and
    /// the item's legible outputs get the cues now shown. A subtitle track that failed is reported once.
    func presentCues(at time: MediaTime, now: Double) {
        guard let item = currentItem, let loaded = currentLoaded else { return }
        if let text = loaded.text, state.presentation.textFailureReported != ObjectIdentifier(text),
            let failure = text.snapshot().failure
        {
            state.presentation.textFailureReported = ObjectIdentifier(text)
            optionFailed(text.option, item, failure, at: now)
        }
        if let text = loaded.text {
            // A subtitle rendition reads the segments near the playhead (where a seek under way lands, it is told).
            if !state.seeks.isSeeking { text.playheadMoved(to: time) }
            for error in text.takeSkippedErrors() { emit(.decodeError("subtitles: \(error)"), at: now) }
        }
        let shown = loaded.text?.shown(at: time + Self.timeSlack) ?? []
        guard shown != state.presentation.shownCues else { return }
        let previous = state.presentation.shownCues
        state.presentation.shownCues = shown
        for cue in shown where !previous.contains(cue) { emit(.cue(cue), at: now) }
        let outputs = item.state.withLock { $0.legibleOutputs }
        for output in outputs { callback("legibleOutput", output.receive(shown, itemTime: time)) }
    }

    /// Clock time at which the cues shown next change (a cue of the current item starts or ends), while the clock
    /// runs.
    func nextCueChangeDue() -> Double? {
        guard state.timeline.isRunning, !state.seeks.isSeeking, let text = currentLoaded?.text else { return nil }
        let playhead = timelineTime(at: clockNow()) + Self.timeSlack
        return text.nextChange(after: playhead).map { clockTime(ofItemTime: $0) }
    }

    /// Whether the current item's subtitles are read through (or failed, or absent): under the untimed clock time
    /// waits for them, so that no cue is passed before it is read.
    var textSettled: Bool {
        guard let loaded = currentLoaded, let text = loaded.text else { return true }
        return loaded.textWaitsForClock || text.snapshot().isSettled
    }
}
