/// Presenting (locked): due frames to the outputs, due audio to the taps.
extension PlayerCore {
    /// How close to the playhead a frame or an end counts as reached (clock times are Doubles).
    static let timeSlack = MediaTime(value: 1, timescale: 1_000_000)

    /// Under a host clock, how many frame deliveries to app code may wait on the callback executor before newer
    /// frames skip the app's callbacks (a slow sink costs bounded memory: a few decoded pictures).
    static let pendingFrameCallbackLimit = 4

    /// Shows every frame due at `now` and hands due audio to the taps.
    ///
    /// Under a host clock, when several frames are due at once only the newest is shown and the others are counted
    /// as dropped. Under manual and untimed clocks every frame is shown. The first frame of an item (or after a
    /// seek) is shown at once even while paused, as a poster.
    func present(at now: Double) {
        guard let loaded = currentLoaded, !state.seeks.isSeeking else { return }
        // Clock time is a Double: allow a microsecond so a frame at 1/30 s is due at clock time 0.033333.
        let t = timelineTime(at: now) + Self.timeSlack
        if let video = loaded.video {
            let (due, after) = video.takeFrames(dueBy: t, atLeastOne: state.presentation.lastFrameTime == nil)
            if let newest = due.last {
                if pacing.presentsEveryFrame {
                    for frame in due { render(frame, at: now) }
                } else {
                    render(newest, at: now)
                    if due.count > 1 {
                        state.presentation.framesDropped += due.count - 1
                        emit(.framesDropped(times: due.dropLast().map(\.time)), at: now)
                    }
                }
            }
            if after.decodeErrors > state.presentation.decodeErrorsReported {
                state.presentation.decodeErrorsReported = after.decodeErrors
                emit(.decodeError("\(after.decodeErrors) damaged video packet(s) skipped"), at: now)
            }
        }
        if let audio = loaded.audio {
            // A device plays what it is given later (its latency): it gets the audio a little ahead.
            let lead = writesToDevice ? MediaTime(seconds: AudioDeviceState.lead * state.timeline.rate) : .zero
            let due = audio.takeBuffers(dueBy: t + lead)
            if let last = due.last { state.presentation.lastAudio = (last.buffer.time, last.end) }
            if !due.isEmpty || !state.device.pending.isEmpty, writesToDevice { writeToDevice(due, at: now) }
            if !due.isEmpty, !state.outputs.audioTaps.isEmpty {
                let taps = state.outputs.audioTaps
                let buffers = due.map(\.buffer)
                for tap in taps { tap.count(buffers) }
                callback("audioTap") { for buffer in buffers { for tap in taps { tap.deliver(buffer) } } }
            }
        }
        presentCues(at: t - Self.timeSlack, now: now)
        presentMetadata(at: t - Self.timeSlack, now: now)
        if let item = currentItem {
            let reported = reportedTime(at: now)
            item.state.withLock { $0.currentTime = reported }
        }
    }

    private func render(_ frame: VideoFrame, at now: Double) {
        if case .host = clockMode, state.timeline.isRunning, state.presentation.lastFrameTime != nil {
            // How late (or early) the frame is shown against the time the clock says it is due.
            state.presentation.recordPresentationError(now - clockTime(ofItemTime: frame.time))
            state.presentation.recordAvsync(audioClock(at: now) - frame.time.seconds, sample: writesToDevice)
        }
        state.presentation.lastFrameTime = frame.time
        state.presentation.framesRendered += 1
        noteSize(of: frame, at: now)
        for receiver in state.outputs.receivers {
            guard let work = receiver.receive(frame, hostTime: now) else { continue }
            let watchdog = metrics.watchdog
            let label = receiver.callbackLabel
            if pacing.waitsForCallbacks {
                executor.enqueue { watchdog.measure(label, work) }
            } else if !executor.enqueueFrame(limit: Self.pendingFrameCallbackLimit, { watchdog.measure(label, work) }) {
                state.presentation.frameCallbacksSkipped += 1
            }
        }
        // The item's own pull outputs: they keep the frame, no app code runs.
        for output in currentItem?.state.withLock({ $0.videoOutputs }) ?? [] { output.keep(frame) }
        if !state.presentation.firstFrameShown {
            state.presentation.firstFrameShown = true
            emit(.firstFrame(latency: now - state.presentation.currentSince), at: now)
        }
    }

    /// Reports a change of the pictures' size (`PlayerItem.presentationSize` and an event): a stream whose frame
    /// size changes mid-stream, as adaptive streams do.
    private func noteSize(of frame: VideoFrame, at now: Double) {
        let size = frame.rotation % 180 == 0 ? (frame.width, frame.height) : (frame.height, frame.width)
        guard let item = currentItem else { return }
        let known = state.presentation.pictureSize ?? item.state.withLock { $0.presentationSize }
        state.presentation.pictureSize = size
        guard known.map({ $0 != size }) ?? true else { return }
        item.state.withLock { $0.presentationSize = size }
        emit(.presentationSize(width: size.0, height: size.1), at: now)
    }
}
