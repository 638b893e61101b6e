/// The end of the current item (locked).
extension PlayerCore {
    /// Clock time at which the current item ends, once everything left of it is queued; nil before.
    func endDue() -> Double? {
        guard state.timeline.isRunning, !state.presentation.endReported, let loaded = currentLoaded,
            !state.seeks.isSeeking, drained(loaded, allowQueued: true)
        else { return nil }
        return clockTime(ofItemTime: endTime(of: loaded))
    }

    /// Where the item ends: its duration (the last frame when it is unknown), or later when media runs past it.
    func endTime(of loaded: LoadedItem) -> MediaTime {
        let base = loaded.duration.isNumeric ? loaded.duration : (state.presentation.lastFrameTime ?? .zero)
        return mediaEnd(after: base, loaded)
    }

    /// `base`, or the latest frame or audio buffer (its start) shown or queued when that is later: damaged or odd
    /// files have frames and audio past the duration their container states, and those still play (the playhead
    /// does not stop short of them). A codec's padding at the very end does not lengthen the item.
    func mediaEnd(after base: MediaTime, _ loaded: LoadedItem) -> MediaTime {
        var end = base
        if let shown = state.presentation.lastFrameTime, shown > end { end = shown }
        if let played = state.presentation.lastAudio?.start, played > end { end = played }
        if let last = loaded.video?.snapshot().last, last > end { end = last }
        if let last = loaded.audio?.snapshot().last, last > end { end = last }
        return end
    }

    /// Whether the decoders reached the end (with `allowQueued`, frames may still wait in the queues).
    func drained(_ loaded: LoadedItem, allowQueued: Bool) -> Bool {
        if let video = loaded.video?.snapshot(), !video.ended || (!allowQueued && video.count > 0) { return false }
        if let audio = loaded.audio?.snapshot(), !audio.ended || (!allowQueued && audio.count > 0) { return false }
        return true
    }

    /// Reports the end of the current item once the playhead reaches it, and applies `actionAtItemEnd`.
    func checkEnd(at now: Double) {
        guard let loaded = currentLoaded, !state.presentation.endReported, !state.seeks.isSeeking else { return }
        if let failure = pipelineFailure(loaded) {
            state.presentation.endReported = true
            // The item's error is set before the event goes out: a consumer woken by it reads `item.error` at once
            // (StreamFaultTests read nil now and then when markFailed set it after).
            currentItem?.state.withLock { if $0.error == nil { $0.error = failure } }
            emit(.failedToPlayToEnd(error: failure.description), at: now)
            markFailed(currentItem, error: failure, at: now)
            return
        }
        guard state.timeline.isRunning, drained(loaded, allowQueued: false),
            timelineTime(at: now) + Self.timeSlack >= endTime(of: loaded)
        else { return }
        state.presentation.endReported = true
        emit(.didPlayToEnd, at: now)
        perform(state.control.reachedEnd(actionAtItemEnd: state.actionAtItemEnd), at: now, reason: .playedToEnd)
    }

    /// A read error that stopped a pipeline, once everything decoded before it was shown.
    private func pipelineFailure(_ loaded: LoadedItem) -> MediaError? {
        if let video = loaded.video?.snapshot(), let failure = video.failure, video.count == 0 { return failure }
        if let audio = loaded.audio?.snapshot(), let failure = audio.failure, audio.count == 0 { return failure }
        return nil
    }
}
