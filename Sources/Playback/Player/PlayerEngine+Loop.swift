import Foundation
import MediaIO

extension PlayerEngine {
    /// The engine thread: applies background work, presents what is due, and sleeps until the next deadline.
    func runLoop() {
        condition.lock()
        while !stopped {
            if isManual {
                manualIteration()
            } else {
                timedIteration()
            }
        }
        condition.unlock()
    }

    /// Host and untimed clocks: everything is applied as soon as it happens.
    private func timedIteration() {
        let renderedBefore = framesRendered
        applyLoadResults()
        applyLanding(requireSettled: false)
        if isUntimed { advanceVirtualTime() }
        let now = clockNow()
        present(at: now)
        updateBuffering(at: now)
        detectStall(at: now)
        checkEnd(at: now)
        observers.tick(engine: self, at: now)
        runDeferred()
        if stopped { return }
        if let wait = nextWait(now: clockNow()) {
            if wait > 0.0005 {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            } else if isUntimed && clockNow() == now && framesRendered == renderedBefore {
                // Nothing moved: give API calls the lock and the decoders a moment instead of spinning.
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.001))
            }
        } else {
            condition.wait()
        }
    }

    /// Manual clock: background work is applied only when the clock is advanced (or a seek lands, which its caller
    /// awaits), after waiting for it to settle, so traces do not depend on thread timing.
    private func manualIteration() {
        if !advanceRequests.isEmpty {
            let (target, continuation) = advanceRequests.removeFirst()
            settle()
            applyLoadResults()
            settle()
            applyLanding(requireSettled: true)
            updateBuffering(at: manualNow)
            step(to: max(target.seconds, manualNow))
            runDeferred()
            condition.unlock()
            continuation.resume()
            condition.lock()
            return
        }
        // A seek is applied once its landing is there: settled alone is not enough, since a decoder blocked on a
        // paused source counts as settled. Until then, wait (looping would spin holding the lock, blocking the clock).
        if seeks.currentSeek != nil, applyLanding(requireSettled: true) {
            runDeferred()
            return
        }
        condition.wait()
    }

    /// Under a manual clock: moves from `manualNow` to `target`, stopping at every frame, item end and observer
    /// deadline on the way, and waiting for decoded frames instead of dropping them.
    private func step(to target: Double) {
        while !stopped {
            let now = manualNow
            present(at: now)
            checkEnd(at: now)
            observers.tick(engine: self, at: now)
            if now >= target {
                // Report buffering only once the decoders have settled: the report then never depends on timing.
                settle()
                updateBuffering(at: now)
                return
            }
            guard clockRunning, let session = currentSession else {
                manualNow = target
                continue
            }
            // Wait until both decoders are idle (queues full or at the end): what comes next is then known, and
            // does not depend on how fast the decode threads ran.
            _ = session
            settleCurrent()
            var next = target
            if let stallAt = starvationTime() {
                // The source cannot deliver the next frame before clock time passes: a stall, when it is due.
                if stallAt <= now {
                    stall(at: now)
                    continue
                }
                next = min(next, stallAt)
            }
            if let due = nextFrameDue(), due > now { next = min(next, due) }
            if let end = endDue(), end > now { next = min(next, end) }
            if let observed = observers.nextDue(engine: self), observed > now { next = min(next, observed) }
            manualNow = next
        }
    }

    func clockDidAdvance(to time: MediaTime) async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if stopped {
                condition.unlock()
                continuation.resume()
                return
            }
            advanceRequests.append((time, continuation))
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Manual clock: waits until loads are done and the current pipelines are idle (full, ended or failed).
    private func settle() {
        while !stopped && (loadsInFlight > blockedLoads() || !isSettled()) {
            // Signalled by the pipelines, loaders and throttles; the timeout is a safety net, not a pace.
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
    }

    /// Loads waiting for a throttled source that has nothing to give until clock time passes.
    private func blockedLoads() -> Int {
        items.filter { item in
            guard case .loading(let sources)? = slots[ObjectIdentifier(item)] else { return false }
            return sources.isWaitingForClock()
        }.count
    }

    /// Manual clock: when the video queue is empty though the decoder has not ended (it waits for a throttled
    /// source), the clock time at which the next frame would be due: one frame interval after the last one shown.
    /// The same for the audio, which leads: once the audio handed out so far is played (plus the grace a device
    /// buffer covers), with none decoded ahead.
    private func starvationTime() -> Double? {
        guard clockRunning, control.timeControlStatus == .playing, let session = currentSession,
              seeks.currentSeek == nil else { return nil }
        var at: Double?
        if let frame = lastFrame, videoStarving(session) {
            at = clockTime(ofItemTime: frame.time + MediaTime(seconds: session.frameInterval))
        }
        if audioStarving(session) {
            let audioAt = clockTime(ofItemTime: audioPlayedEnd() + audioGrace(session))
            at = min(at ?? audioAt, audioAt)
        }
        return at
    }

    /// Manual clock, engine thread: waits until the current item's pipelines are idle.
    func settleCurrent() {
        while !stopped && !isSettled() { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05)) }
    }

    /// The current item's decoders are idle: queues full, at the end, failed, or waiting for a throttled source
    /// that has nothing to give until clock time passes.
    func isSettled() -> Bool {
        guard let session = currentSession else { return loadsInFlight <= blockedLoads() }
        if let video = session.video, !session.videoWaitsForClock {
            video.condition.lock()
            defer { video.condition.unlock() }
            if video.isWorking || !(video.isFull || video.reachedEnd || video.failure != nil) { return false }
        }
        if let audio = session.audio, !session.audioWaitsForClock {
            audio.condition.lock()
            defer { audio.condition.unlock() }
            if !audio.isSettled { return false }
        }
        return true
    }

    /// Untimed clock: virtual time jumps to the next frame once it is decoded (or to the end of the media). While
    /// the video decoder works on the next frame, time waits for it (no stall: nothing is late in untimed time).
    private func advanceVirtualTime() {
        guard clockRunning, currentSession != nil, seeks.currentSeek == nil else { return }
        if let (due, time) = nextFrame() {
            // Audio leads: time reaches the frame once the audio up to it is decoded.
            if let allowed = audioAllows(time) { virtualNow = max(virtualNow, min(due, clockTime(ofItemTime: allowed))) }
        } else if let end = endDue() {
            virtualNow = max(virtualNow, end)
        } else if let next = audioDueWithoutVideo() {
            virtualNow = max(virtualNow, next)
        }
    }

    /// Clock time at which the playhead reaches `time` (while the clock runs).
    func clockTime(ofItemTime time: MediaTime) -> Double {
        anchorClock + (time - anchorItemTime).seconds / max(clockRate, 1e-9)
    }

    /// Untimed clock, when there is no video frame to wait for (no video, or its decoder ended or failed with
    /// nothing queued): the clock time of the next decoded audio, which virtual time then follows.
    func audioDueWithoutVideo() -> Double? {
        guard clockRunning, let session = currentSession, let audio = session.audio else { return nil }
        if let video = session.video {
            video.condition.lock()
            let finished = video.frames.isEmpty && (video.reachedEnd || video.failure != nil)
            video.condition.unlock()
            guard finished else { return nil }
        }
        audio.condition.lock()
        defer { audio.condition.unlock() }
        return audio.buffers.first.map { clockTime(ofItemTime: $0.time) }
    }

    /// Clock time at which the next queued frame is due, if one is queued and the clock runs.
    func nextFrameDue() -> Double? { nextFrame()?.due }

    /// The next queued frame's clock time and item time, if one is queued and the clock runs.
    func nextFrame() -> (due: Double, time: MediaTime)? {
        guard clockRunning, let video = currentSession?.video else { return nil }
        video.condition.lock()
        defer { video.condition.unlock() }
        return video.frames.first.map { (clockTime(ofItemTime: $0.time), $0.time) }
    }

    /// Host clock: seconds until the engine must look again, or nil to wait for a signal.
    private func nextWait(now: Double) -> Double? {
        if isUntimed {
            // Virtual time jumps ahead as soon as there is something to show or an end to reach.
            return clockRunning && (nextFrameDue() != nil || endDue() != nil || audioDueWithoutVideo() != nil) && seeks.currentSeek == nil ? 0 : nil
        }
        var deadline: Double?
        func consider(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        if clockRunning, currentSession != nil {
            consider(nextFrameDue())
            consider(endDue())
            consider(observers.nextDue(engine: self))
            if let session = currentSession, session.video == nil { consider(now + 0.02) }
            if let frame = lastFrame, let session = currentSession { consider(clockTime(ofItemTime: frame.time) + session.frameInterval * 1.5) }
        }
        return deadline.map { max($0 - now, 0) }
    }

    /// Runs the callbacks collected while locked, with the lock released.
    func runDeferred() {
        guard !deferred.isEmpty else { return }
        let work = deferred
        deferred.removeAll()
        condition.unlock()
        for callback in work { callback() }
        condition.lock()
    }
}
