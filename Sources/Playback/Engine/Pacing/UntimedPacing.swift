/// The untimed clock: virtual time that jumps to each next frame as soon as it is decoded (and the audio up to it:
/// audio leads), for batch work and benchmarks. Every frame is shown, and the engine waits for the callbacks it
/// hands out, so a scenario gives the same trace on every run. Nothing is late in untimed time: no stalls.
struct UntimedPacing: Pacing {
    var presentsEveryFrame: Bool { true }
    var waitsForCallbacks: Bool { true }
    var settlesAtAdvances: Bool { false }
    var hasRealTimeDeadlines: Bool { false }

    func now(_ clock: ClockState) -> Double { clock.virtualNow }

    func iterate(_ core: PlayerCore) {
        let seen = core.signals
        let renderedBefore = core.state.presentation.framesRendered
        if core.state.queue.hasResults {
            core.applyLoadResults()
            // What an item that just became ready buffers is known before its first frame is looked at, whether the
            // decoder has that frame yet or not: readiness, buffering and the first frame in one order every run.
            core.updateBuffering(at: core.clockNow())
            // And what app code does on `readyToPlay` (seek first, say) takes effect before a frame is shown.
            core.performCollectedWork()
            core.awaitCallbacks()
            if core.state.stopped { return }
        }
        core.applyLanding(requireSettled: false)
        advanceVirtualTime(core)
        let now = core.clockNow()
        core.presentAndReport(at: now, detectingStalls: true)
        core.performCollectedWork()
        core.awaitCallbacks()
        if core.state.stopped { return }
        if hasSomethingToReach(core) {
            if core.clockNow() == now && core.state.presentation.framesRendered == renderedBefore {
                // Nothing moved: give API calls the lock and the decoders a moment instead of spinning.
                core.waitForChange(timeout: 0.001, since: seen)
            }
        } else {
            core.waitForChange(timeout: nil, since: seen)
        }
    }

    /// Whether virtual time can jump ahead now: a frame to show, an end to reach, or audio to follow.
    private func hasSomethingToReach(_ core: PlayerCore) -> Bool {
        core.state.timeline.isRunning && !core.state.seeks.isSeeking
            && (core.nextFrameDue() != nil || core.endDue() != nil || audioDueWithoutVideo(core) != nil)
    }

    /// Virtual time jumps to the next frame once it is decoded (or to the end of the media). While the video
    /// decoder works on the next frame, time waits for it.
    private func advanceVirtualTime(_ core: PlayerCore) {
        guard core.state.timeline.isRunning, core.currentLoaded != nil, !core.state.seeks.isSeeking,
            core.textSettled
        else { return }
        var target: Double?
        if let first = core.currentLoaded?.video?.snapshot().first {
            // Audio leads: time reaches the frame once the audio up to it is decoded.
            if let allowed = audioAllows(core, first) {
                target = min(core.clockTime(ofItemTime: first), core.clockTime(ofItemTime: allowed))
            }
        } else if let end = core.endDue() {
            target = end
        } else if let next = audioDueWithoutVideo(core) {
            target = next
        }
        // Stop where the cues shown change on the way, so each is shown at its own time.
        if let cue = core.nextCueChangeDue(), cue > core.clockNow(), let next = target { target = min(next, cue) }
        // And at each timed metadata sample, once what is due up to the target is read.
        if let due = core.nextMetadataDue(), due > core.clockNow(), let next = target { target = min(next, due) }
        if let next = target, !core.metadataCovers(clockTime: next) { return }
        if let target { core.state.clock.virtualNow = max(core.state.clock.virtualNow, target) }
    }

    /// How far toward `time` the decoded audio lets the clock go: all the way when the audio is decoded up to it
    /// (or there is none, or it ended or failed); else to the end of what is decoded; nil while nothing is (the
    /// audio decoder wakes the engine when it has more).
    private func audioAllows(_ core: PlayerCore, _ time: MediaTime) -> MediaTime? {
        guard let audio = core.currentLoaded?.audio?.snapshot() else { return time }
        if audio.ended { return time }
        guard !audio.hasPendingSeek, audio.count > 0 else { return nil }
        return min(time, audio.decodedEnd)
    }

    /// When there is no video frame to wait for (no video, or its decoder ended or failed with nothing queued):
    /// the clock time of the next decoded audio, which virtual time then follows.
    private func audioDueWithoutVideo(_ core: PlayerCore) -> Double? {
        guard core.state.timeline.isRunning, let loaded = core.currentLoaded, let audio = loaded.audio
        else { return nil }
        if let video = loaded.video?.snapshot(), !(video.count == 0 && video.ended) { return nil }
        return audio.snapshot().first.map { core.clockTime(ofItemTime: $0) }
    }
}
