import Foundation

/// The manual clock: virtual time that moves only when a test calls `ManualClock.advance(by:)`.
///
/// Background work (loads, seek landings, buffer reports) is applied only at advances, after waiting for the
/// decoders to settle (queues full, ended, or waiting for bytes only clock time brings), and the engine waits for
/// decoded frames instead of dropping them; it stops at every frame, end and observer deadline on the way, and
/// waits there for the callbacks it handed out. So a scenario gives the same trace on every run, whatever the
/// thread timing, and what a callback does takes effect at the clock time it was called for.
struct ManualPacing: Pacing {
    var presentsEveryFrame: Bool { true }
    var waitsForCallbacks: Bool { true }
    var settlesAtAdvances: Bool { true }
    var hasRealTimeDeadlines: Bool { false }

    func now(_ clock: ClockState) -> Double { clock.manualNow }

    func iterate(_ core: PlayerCore) {
        let seen = core.signals
        if !core.state.clock.advanceRequests.isEmpty {
            let (target, done) = core.state.clock.advanceRequests.removeFirst()
            core.settle()
            core.applyLoadResults()
            core.settle()
            core.applyLanding(requireSettled: true)
            core.updateBuffering(at: core.state.clock.manualNow)
            step(core, to: max(target.seconds, core.state.clock.manualNow))
            // The advance returns after every callback it caused.
            core.executor.enqueue { done.resume() }
            core.performCollectedWork()
            return
        }
        // A seek is applied once its landing is there: settled alone is not enough, since a decoder blocked on a
        // paused source counts as settled. Until then, wait (looping would spin holding the lock, blocking the clock).
        if core.state.seeks.isSeeking, core.applyLanding(requireSettled: true) {
            core.performCollectedWork()
            core.awaitCallbacks()
            return
        }
        core.waitForChange(timeout: nil, since: seen)
    }

    /// Moves from `manualNow` to `target`, stopping at every frame, item end and observer deadline on the way,
    /// and waiting for decoded frames instead of dropping them.
    private func step(_ core: PlayerCore, to target: Double) {
        while !core.state.stopped {
            let now = core.state.clock.manualNow
            if core.state.seeks.isSeeking {
                // A callback asked for a seek: it lands now, at the time it was asked for.
                core.settleCurrent()
                core.applyLanding(requireSettled: true)
            }
            let seeking = core.state.seeks.isSeeking
            core.present(at: now)
            core.tickObservers(at: now)
            core.reachEnd(at: now)
            core.performCollectedWork()
            core.awaitCallbacks()
            // A callback at this instant (an observer at the item's end, say) asked for a seek: it lands here too.
            if !seeking && core.state.seeks.isSeeking { continue }
            if now >= target {
                // Report buffering only once the decoders have settled: the report then never depends on timing.
                core.settle()
                core.updateBuffering(at: now)
                return
            }
            guard core.state.timeline.isRunning, core.currentLoaded != nil else {
                core.state.clock.manualNow = target
                continue
            }
            // Wait until both decoders are idle (queues full or at the end): what comes next is then known, and
            // does not depend on how fast the decode threads ran.
            core.settleCurrent()
            var next = target
            if let stallAt = core.starvationTime() {
                // The source cannot deliver the next frame before clock time passes: a stall, when it is due.
                if stallAt <= now {
                    core.stall(at: now)
                    continue
                }
                next = min(next, stallAt)
            }
            if let due = core.nextFrameDue(), due > now { next = min(next, due) }
            if let end = core.endDue(), end > now { next = min(next, end) }
            if let observed = core.nextObserverDue(), observed > now { next = min(next, observed) }
            if let cue = core.nextCueChangeDue(), cue > now { next = min(next, cue) }
            if let due = core.nextMetadataDue(), due > now { next = min(next, due) }
            core.state.clock.manualNow = next
        }
    }
}

extension PlayerCore {
    /// Manual clock: waits until loads are done and the current pipelines are idle (full, ended or failed).
    func settle() {
        while !state.stopped && (state.queue.loadsInFlight > state.queue.loadsWaitingForClock || !isSettled()) {
            // Signalled by the pipelines, loaders and paced sources; the timeout is a safety net, not a pace.
            waitForChange(timeout: 0.05, since: signals)
        }
    }

    /// Manual clock, engine thread: waits until the current item's pipelines are idle.
    func settleCurrent() {
        while !state.stopped && !isSettled() { waitForChange(timeout: 0.05, since: signals) }
    }

    /// The current item's decoders are idle: queues full, at the end, failed, or waiting for a source that has
    /// nothing to give until clock time passes.
    func isSettled() -> Bool {
        guard let loaded = currentLoaded else {
            return state.queue.loadsInFlight <= state.queue.loadsWaitingForClock
        }
        if let video = loaded.video, !loaded.videoWaitsForClock {
            let snapshot = video.snapshot()
            if snapshot.isWorking || !(snapshot.isFull || snapshot.ended) { return false }
        }
        if let audio = loaded.audio, !loaded.audioWaitsForClock, !audio.snapshot().isSettled { return false }
        return textSettled && metadataSettled
    }
}
