import Foundation
import MediaIO

extension PlayerEngine {
    /// Shows every frame due at `now` and hands due audio to the taps.
    ///
    /// Under a host clock, when several frames are due at once only the newest is shown and the others are counted
    /// as dropped. Under manual and untimed clocks every frame is shown. The first frame of an item (or after a
    /// seek) is shown at once even while paused, as a poster.
    func present(at now: Double) {
        guard let session = currentSession, seeks.currentSeek == nil else { return }
        // Clock time is a Double: allow a microsecond so a frame at 1/30 s is due at clock time 0.033333.
        let t = timelineTime(at: now) + Self.timeSlack
        if let video = session.video {
            var due: [VideoFrame] = []
            video.condition.lock()
            while let frame = video.frames.first, frame.time <= t || (lastFrame == nil && due.isEmpty) {
                due.append(video.popFirst()!)
            }
            let errors = video.decodeErrorCount
            video.condition.unlock()
            if !due.isEmpty {
                if isManual || isUntimed {
                    for frame in due { render(frame, at: now) }
                } else {
                    framesDropped += due.count - 1
                    render(due[due.count - 1], at: now)
                }
            }
            if errors > lastDecodeErrors {
                lastDecodeErrors = errors
                emit(.decodeError("\(errors) damaged video packet(s) skipped"), at: now)
            }
        }
        if let audio = session.audio {
            var due: [AudioBuffer] = []
            audio.condition.lock()
            while let buffer = audio.buffers.first, buffer.time <= t {
                due.append(audio.popFirst()!)
                lastAudio = (buffer.time, audio.mediaEnd(of: buffer))
            }
            audio.condition.unlock()
            if !due.isEmpty, !audioTaps.isEmpty {
                let taps = audioTaps
                let buffers = due
                deferCallback("audioTap") { for buffer in buffers { for tap in taps { tap.receive(buffer) } } }
            }
        }
        if let item = currentItem {
            let reported = reportedTime(at: now)
            item.state.withLock { $0.currentTime = reported }
        }
    }

    /// How close to the playhead a frame or an end counts as reached (clock times are Doubles).
    static let timeSlack = MediaTime(value: 1, timescale: 1_000_000)

    private func render(_ frame: VideoFrame, at now: Double) {
        if case .host = clockMode, clockRunning, lastFrame != nil, presentationErrors.count < 1 << 20 {
            // How late (or early) the frame is shown against the time the clock says it is due.
            presentationErrors.append(now - clockTime(ofItemTime: frame.time))
        }
        lastFrame = frame
        framesRendered += 1
        for receiver in receivers {
            if receiver is VideoSink {
                metrics.watchdog.measure("videoSink") { receiver.receive(frame, hostTime: now) }
            } else {
                receiver.receive(frame, hostTime: now)
            }
        }
        if !firstFrameShown {
            firstFrameShown = true
            emit(.firstFrame(latency: now - currentSince), at: now)
        }
    }

    /// Reports the current item's buffering state, and lets the time-control machine react to it.
    ///
    /// As in AVPlayer, buffering is about the media being available, not about decoded pictures: a local file is
    /// loaded whole, so it is likely to keep up as soon as it is ready. Only after a stall (the decoder fell behind
    /// the clock) does the player wait for its queue of decoded frames to fill again (or reach the end).
    func updateBuffering(at now: Double) {
        guard let item = currentItem, let session = currentSession, seeks.currentSeek == nil else { return }
        let t = timelineTime(at: now)
        var ended = true
        var full = false
        var bufferedUntil = t
        if let video = session.video {
            video.condition.lock()
            if let last = video.frames.last { bufferedUntil = last.time }
            ended = video.reachedEnd || video.failure != nil
            full = video.isFull
            video.condition.unlock()
        } else if let audio = session.audio {
            audio.condition.lock()
            if let last = audio.buffers.last { bufferedUntil = last.time + last.duration }
            ended = audio.reachedEnd || audio.failure != nil
            full = audio.isSettled
            audio.condition.unlock()
        }
        if let audio = session.audio, session.video != nil, recoveringFromStall {
            // After a stall, the audio that leads must be buffered again too (or be at its end).
            audio.condition.lock()
            let audioReady = audio.reachedEnd || audio.failure != nil || audio.bufferedSeconds >= 0.5 || audio.isSettled
            audio.condition.unlock()
            full = full && audioReady
        }
        if recoveringFromStall && (full || ended) { recoveringFromStall = false }
        let available = session.duration.isNumeric ? max(session.duration - t, .zero) : MediaTime.positiveInfinity
        let buffering = item.state.withLock { state -> BufferingState in
            state.buffering = state.buffering.updated(bufferedAhead: recoveringFromStall ? .zero : available,
                                                      preferredForwardBufferDuration: state.preferredForwardBufferDuration,
                                                      reachedEndOfFile: !recoveringFromStall, queueIsFull: full)
            state.bufferedUntil = session.duration.isNumeric ? session.duration : bufferedUntil
            return state.buffering
        }
        if buffering.isPlaybackLikelyToKeepUp != lastLikelyToKeepUp {
            lastLikelyToKeepUp = buffering.isPlaybackLikelyToKeepUp
            emit(.likelyToKeepUp(buffering.isPlaybackLikelyToKeepUp), at: now)
        }
        perform(control.bufferChanged(likelyToKeepUp: buffering.isPlaybackLikelyToKeepUp,
                                      bufferEmpty: buffering.isPlaybackBufferEmpty), at: now)
    }

    /// Host clock: playback ran out of media. The next frame is due but not decoded and the decoder has not
    /// reached the end; or the audio leads and has run dry: its decoder has not ended, and the playhead passed the
    /// audio handed out so far by the grace of ``audioGrace(_:)``.
    func detectStall(at now: Double) {
        guard control.timeControlStatus == .playing, let session = currentSession, seeks.currentSeek == nil else { return }
        if let frame = lastFrame, videoStarving(session),
           timelineTime(at: now).seconds >= frame.time.seconds + session.frameInterval * 1.5 {
            stall(at: now)
            return
        }
        if audioStarving(session), timelineTime(at: now) >= audioPlayedEnd() + audioGrace(session) {
            stall(at: now)
        }
    }

    /// The video decoder has nothing queued and has neither ended nor failed (nor is it seeking).
    func videoStarving(_ session: ItemSession) -> Bool {
        guard let video = session.video else { return false }
        video.condition.lock()
        defer { video.condition.unlock() }
        return video.frames.isEmpty && !video.reachedEnd && video.failure == nil && !video.hasPendingSeek
    }

    /// The audio leads the timeline: with nothing decoded ahead (and neither ended nor failed nor seeking), the
    /// playhead can go no further than the audio handed out so far, ``audioPlayedEnd()``.
    func audioStarving(_ session: ItemSession) -> Bool {
        guard let audio = session.audio else { return false }
        audio.condition.lock()
        defer { audio.condition.unlock() }
        return audio.buffers.isEmpty && !audio.reachedEnd && audio.failure == nil && !audio.hasPendingSeek
    }

    /// Where the audio handed out so far ends (where the item started or a seek landed, before any).
    func audioPlayedEnd() -> MediaTime { lastAudio?.end ?? anchorItemTime }

    /// How far the playhead may pass the audio played before an audio underrun counts as a stall: one frame
    /// interval, at least 100 ms (what an audio device's own buffer would cover).
    func audioGrace(_ session: ItemSession) -> MediaTime {
        MediaTime(seconds: max(session.frameInterval, 0.1))
    }

    /// How far toward `time` the decoded audio lets the untimed clock go: all the way when the audio is decoded up
    /// to it (or there is none, or it ended or failed); else to the end of what is decoded; nil while nothing is
    /// (the audio decoder wakes the engine when it has more). Audio leads, video follows.
    func audioAllows(_ time: MediaTime) -> MediaTime? {
        guard let audio = currentSession?.audio else { return time }
        audio.condition.lock()
        defer { audio.condition.unlock() }
        if audio.reachedEnd || audio.failure != nil { return time }
        guard !audio.hasPendingSeek, !audio.buffers.isEmpty else { return nil }
        return min(time, audio.decodedEnd)
    }

    /// Playback ran out of decoded frames: report it, and wait (or pause) until the queue fills again.
    func stall(at now: Double) {
        emit(.stalled, at: now)
        recoveringFromStall = true
        perform(control.stalled(), at: now, reason: .stalled)
        updateBuffering(at: now)
    }

    /// Clock time at which the current item ends, once everything left of it is queued; nil before.
    func endDue() -> Double? {
        guard clockRunning, !endReported, let session = currentSession, seeks.currentSeek == nil else { return nil }
        guard drained(session, allowQueued: true) else { return nil }
        return clockTime(ofItemTime: endTime(of: session))
    }

    /// Where the item ends: its duration (the last frame when it is unknown), or later when media runs past it.
    func endTime(of session: ItemSession) -> MediaTime {
        mediaEnd(after: session.duration.isNumeric ? session.duration : (lastFrame?.time ?? .zero), session)
    }

    /// `base`, or the latest frame or audio buffer (its start) shown or queued when that is later: damaged or odd
    /// files have frames and audio past the duration their container states, and those still play (the playhead
    /// does not stop short of them). A codec's padding at the very end does not lengthen the item.
    func mediaEnd(after base: MediaTime, _ session: ItemSession) -> MediaTime {
        var end = base
        if let shown = lastFrame?.time, shown > end { end = shown }
        if let played = lastAudio?.start, played > end { end = played }
        if let video = session.video {
            video.condition.lock()
            if let last = video.frames.last, last.time > end { end = last.time }
            video.condition.unlock()
        }
        if let audio = session.audio {
            audio.condition.lock()
            if let last = audio.buffers.last, last.time > end { end = last.time }
            audio.condition.unlock()
        }
        return end
    }

    /// Whether the decoders reached the end (with `allowQueued`, frames may still wait in the queues).
    func drained(_ session: ItemSession, allowQueued: Bool) -> Bool {
        if let video = session.video {
            video.condition.lock()
            defer { video.condition.unlock() }
            let ended = video.reachedEnd || video.failure != nil
            if !ended || (!allowQueued && !video.frames.isEmpty) { return false }
        }
        if let audio = session.audio {
            audio.condition.lock()
            defer { audio.condition.unlock() }
            let ended = audio.reachedEnd || audio.failure != nil
            if !ended || (!allowQueued && !audio.buffers.isEmpty) { return false }
        }
        return true
    }

    /// Reports the end of the current item once the playhead reaches it, and applies `actionAtItemEnd`.
    func checkEnd(at now: Double) {
        guard let session = currentSession, !endReported, seeks.currentSeek == nil else { return }
        if let failure = pipelineFailure(session) {
            endReported = true
            emit(.failedToPlayToEnd(error: failure.description), at: now)
            item(currentItem, failedWith: failure, at: now)
            return
        }
        guard clockRunning, drained(session, allowQueued: false),
              timelineTime(at: now) + Self.timeSlack >= endTime(of: session) else { return }
        endReported = true
        emit(.didPlayToEnd, at: now)
        perform(control.reachedEnd(actionAtItemEnd: actionAtItemEnd), at: now, reason: .playedToEnd)
    }

    /// A read error that stopped a pipeline, once everything decoded before it was shown.
    private func pipelineFailure(_ session: ItemSession) -> MediaError? {
        if let video = session.video {
            video.condition.lock()
            defer { video.condition.unlock() }
            if let failure = video.failure, video.frames.isEmpty { return failure }
        }
        if let audio = session.audio {
            audio.condition.lock()
            defer { audio.condition.unlock() }
            if let failure = audio.failure, audio.buffers.isEmpty { return failure }
        }
        return nil
    }
}
