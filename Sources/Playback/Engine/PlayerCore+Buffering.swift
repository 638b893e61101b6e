/// Buffering and stalls (locked).
extension PlayerCore {
    /// Reports the current item's buffering state, and lets the time-control machine react to it.
    ///
    /// As in AVPlayer, buffering is about the media being available, not about decoded pictures: a local file is
    /// loaded whole, so it is likely to keep up as soon as it is ready. Only after a stall (the decoder fell behind
    /// the clock) does the player wait for its queue of decoded frames to fill again (or reach the end); and an item
    /// fed over a link starts (or resumes) once its decoders are ahead too. The decoded queues gate those starts
    /// only: the flags never follow a queue that fills or drains by a frame (``BufferingState``).
    func updateBuffering(at now: Double) {
        guard let item = currentItem, let loaded = currentLoaded, !state.seeks.isSeeking else { return }
        let t = timelineTime(at: now)
        if pacing.hasRealTimeDeadlines, state.timeline.isRunning, let session = item.streamAccess?.session {
            state.work.append(.streamPlayhead(session, t.seconds))
        }
        var ended = true
        var full = false
        var bufferedUntil = t
        let audio = loaded.audio?.snapshot()
        if let video = loaded.video?.snapshot() {
            if let last = video.last { bufferedUntil = last }
            ended = video.ended
            full = video.isFull
        } else if let audio {
            if let lastEnd = audio.lastEnd { bufferedUntil = lastEnd }
            ended = audio.ended
            full = audio.isSettled
        }
        var recovering = state.buffering.recoveringFromStall
        if let audio, loaded.video != nil, recovering {
            // After a stall, the audio that leads must be buffered again too (or be at its end).
            full = full && (audio.ended || audio.bufferedSeconds >= 0.5 || audio.isSettled)
        }
        if let remote = loaded.remote {
            // Playback starts, and resumes after a stall, once the decoders are ahead too: a full queue of frames
            // (or the end), not the bytes alone; before the first start, frames covering the start threshold.
            updateRemoteBuffering(
                item, loaded, remote, at: now, playhead: t, decodersReady: full || ended,
                decodedAhead: (bufferedUntil - t).seconds + (loaded.video != nil ? loaded.frameInterval : 0))
            return
        }
        if recovering && (full || ended) {
            recovering = false
            state.buffering.recoveringFromStall = false
        }
        let available = loaded.duration.isNumeric ? max(loaded.duration - t, .zero) : MediaTime.positiveInfinity
        let buffering = item.state.withLock { itemState -> BufferingState in
            itemState.buffering = itemState.buffering.updated(
                bufferedAhead: recovering ? .zero : available,
                preferredForwardBufferDuration: itemState.preferredForwardBufferDuration,
                reachedEndOfFile: !recovering, queueIsFull: false)
            itemState.bufferedUntil = loaded.duration.isNumeric ? loaded.duration : bufferedUntil
            return itemState.buffering
        }
        if buffering.isPlaybackLikelyToKeepUp != state.buffering.lastLikelyToKeepUp {
            state.buffering.lastLikelyToKeepUp = buffering.isPlaybackLikelyToKeepUp
            emit(.likelyToKeepUp(buffering.isPlaybackLikelyToKeepUp), at: now)
        }
        perform(
            state.control.bufferChanged(
                likelyToKeepUp: buffering.isPlaybackLikelyToKeepUp,
                bufferEmpty: buffering.isPlaybackBufferEmpty), at: now)
    }

    /// An item fed over a link: the buffer is the media its bytes held so far cover ahead of the playhead, the
    /// download rate predicts whether it keeps up, and playback waits for the decoders too (`decodersReady`: the
    /// frame queue full or at its end; after a stall, the audio buffered again too).
    private func updateRemoteBuffering(
        _ item: PlayerItem, _ loaded: LoadedItem, _ remote: any ProgressiveByteSource,
        at now: Double, playhead t: MediaTime, decodersReady: Bool, decodedAhead: Double
    ) {
        let duration = loaded.duration.isNumeric ? loaded.duration.seconds : nil
        let progress = remote.progress
        let measured = RemoteBuffer.measure(
            progress, timeline: loaded.byteTimeline, duration: duration, playhead: t.seconds)
        let recovering = state.buffering.recoveringFromStall
        if state.control.timeControlStatus == .playing { state.buffering.itemHasPlayed = true }
        // The first start uses the thresholds alone, even for an item that was buffered (and likely to keep up)
        // while paused: a feed's prepared next item measured its download rate while it gave the link to the item
        // on screen, and that rate says nothing about the link it gets once it plays (it held such items 0.1-0.8 s
        // after their swipe, with a second of media buffered, until the rate was measured again).
        let shortfall = state.buffering.itemHasPlayed ? measured.predictedShortfall : 0
        let buffering = item.state.withLock { itemState -> BufferingState in
            let preferred = itemState.preferredForwardBufferDuration
            // Before the first start the decoders are ahead once their frames cover the start threshold: a full
            // queue of small pictures (24 of 640x360) is more media than the bytes of a prepared item that buffered
            // half a second behind the item on screen, which then waited for bytes it did not need to start.
            let start = BufferingState.startThreshold(preferredForwardBufferDuration: preferred)
            let decodersReady =
                decodersReady || !state.buffering.itemHasPlayed && !recovering && decodedAhead >= start - 0.001
            itemState.buffering = itemState.buffering.updated(
                bufferedAhead: MediaTime(seconds: measured.bufferedAhead), preferredForwardBufferDuration: preferred,
                reachedEndOfFile: measured.isComplete, queueIsFull: false,
                predictedShortfall: shortfall, decodersReady: decodersReady)
            itemState.remoteLoadedRanges = measured.loadedRanges
            itemState.networkProgress = progress
            itemState.byteTimeline = loaded.byteTimeline
            itemState.bufferedUntil = t + MediaTime(seconds: measured.bufferedAhead)
            return itemState.buffering
        }
        if recovering && buffering.isPlaybackLikelyToKeepUp { state.buffering.recoveringFromStall = false }
        if buffering.isPlaybackLikelyToKeepUp != state.buffering.lastLikelyToKeepUp {
            state.buffering.lastLikelyToKeepUp = buffering.isPlaybackLikelyToKeepUp
            emit(.likelyToKeepUp(buffering.isPlaybackLikelyToKeepUp), at: now)
        }
        if buffering.isPlaybackBufferEmpty != state.buffering.lastBufferEmpty {
            state.buffering.lastBufferEmpty = buffering.isPlaybackBufferEmpty
            emit(.bufferEmpty(buffering.isPlaybackBufferEmpty), at: now)
        }
        if buffering.isPlaybackBufferFull != state.buffering.lastBufferFull {
            state.buffering.lastBufferFull = buffering.isPlaybackBufferFull
            emit(.bufferFull(buffering.isPlaybackBufferFull), at: now)
        }
        if state.buffering.loadedRangesMoved(measured.loadedRanges)
            || measured.isComplete && measured.loadedRanges != state.buffering.lastLoadedRanges
        {
            state.buffering.lastLoadedRanges = measured.loadedRanges
            emit(.loadedTimeRanges(measured.loadedRanges), at: now)
        }
        perform(
            state.control.bufferChanged(
                likelyToKeepUp: buffering.isPlaybackLikelyToKeepUp,
                bufferEmpty: buffering.isPlaybackBufferEmpty), at: now)
    }

    /// Host clock: playback ran out of media. The next frame is due but not decoded and the decoder has not
    /// reached the end; or the audio leads and has run dry: its decoder has not ended, and the playhead passed the
    /// audio handed out so far by the grace of ``audioGrace(_:)``.
    func detectStall(at now: Double) {
        guard state.control.timeControlStatus == .playing, let loaded = currentLoaded, !state.seeks.isSeeking
        else { return }
        let t = timelineTime(at: now)
        if let shown = state.presentation.lastFrameTime, loaded.video?.snapshot().isStarving == true,
            t.seconds >= shown.seconds + loaded.frameInterval * 1.5
        {
            stall(at: now)
            return
        }
        if loaded.audio?.snapshot().isStarving == true, t >= audioPlayedEnd() + audioGrace(loaded) {
            stall(at: now)
        }
    }

    /// Manual clock: when the video queue is empty though the decoder has not ended (it waits for a throttled
    /// source), the clock time at which the next frame would be due: one frame interval after the last one shown.
    /// The same for the audio, which leads: once the audio handed out so far is played (plus the grace a device
    /// buffer covers), with none decoded ahead.
    func starvationTime() -> Double? {
        guard state.timeline.isRunning, state.control.timeControlStatus == .playing, let loaded = currentLoaded,
            !state.seeks.isSeeking
        else { return nil }
        var at: Double?
        if let shown = state.presentation.lastFrameTime, loaded.video?.snapshot().isStarving == true {
            at = clockTime(ofItemTime: shown + MediaTime(seconds: loaded.frameInterval))
        }
        if loaded.audio?.snapshot().isStarving == true {
            let audioAt = clockTime(ofItemTime: audioPlayedEnd() + audioGrace(loaded))
            at = min(at ?? audioAt, audioAt)
        }
        return at
    }

    /// Where the audio handed out so far ends (where the item started or a seek landed, before any).
    func audioPlayedEnd() -> MediaTime { state.presentation.lastAudio?.end ?? state.timeline.anchorItemTime }

    /// How far the playhead may pass the audio played before an audio underrun counts as a stall: one frame
    /// interval, at least 100 ms (what an audio device's own buffer would cover).
    func audioGrace(_ loaded: LoadedItem) -> MediaTime {
        MediaTime(seconds: max(loaded.frameInterval, 0.1))
    }

    /// Playback ran out of decoded frames: report it, and wait (or pause) until the queue fills again.
    func stall(at now: Double) {
        emit(.stalled, at: now)
        if let session = currentItem?.streamAccess?.session { state.work.append(.streamStalled(session)) }
        state.buffering.recoveringFromStall = true
        currentItem?.state.withLock { $0.buffering.stalled() }
        perform(state.control.stalled(), at: now, reason: .stalled)
        updateBuffering(at: now)
    }
}
