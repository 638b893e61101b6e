import Foundation
import MediaIO

extension PlayerEngine {
    /// Seeks the current item ("latest wins": a newer seek completes this one with false at once).
    func seek(item: PlayerItem?, to time: MediaTime, exact: Bool, origin: SeekOrigin) async -> Bool {
        await withCheckedContinuation { continuation in
            requestSeek(item: item, to: time, exact: exact, origin: origin) { continuation.resume(returning: $0) }
        }
    }

    /// Asks for a seek now, on the caller's thread; `completion` is called exactly once with `finished`.
    func requestSeek(item: PlayerItem?, to time: MediaTime, exact: Bool, origin: SeekOrigin,
                     completion: @escaping @Sendable (Bool) -> Void) {
        condition.lock()
        guard !stopped, let current = currentItem, item == nil || item === current, currentSession != nil,
              time.isNumeric || time == .positiveInfinity || time == .negativeInfinity else {
            condition.unlock()
            completion(false)
            return
        }
        let now = clockNow()
        let from = reportedTime(at: now)
        var target = time.isNumeric ? max(time, .zero) : (time == .negativeInfinity ? .zero : (currentDuration ?? .zero))
        if let duration = currentDuration, target > duration { target = duration }
        let (id, actions) = seeks.request(target: target, exact: exact)
        seekRecords[id] = SeekRecord(item: current, target: target, exact: exact, origin: origin,
                                     requestedAt: now, completion: completion)
        emit(.seekRequested(id: id.rawValue, target: target, from: from, exact: exact, origin: origin), at: now)
        handle(actions, at: now)
        condition.broadcast()
        condition.unlock()
    }

    /// Completes every seek in flight with `false`.
    func cancelPendingSeeks(item: PlayerItem? = nil) {
        condition.lock()
        if item == nil || item === currentItem { cancelAllSeeks(at: clockNow()) }
        condition.broadcast()
        condition.unlock()
    }

    func cancelAllSeeks(at now: Double) {
        let wasSeeking = seeks.currentSeek != nil
        handle(seeks.cancelPendingSeeks(), at: now)
        if wasSeeking, let session = currentSession {
            // The decoders were flushed for the seek: resume from where the playhead is.
            let time = timelineTime(at: now)
            session.video?.condition.lock()
            session.video?.requestSeek(id: 0, to: time, mode: .exact)
            session.video?.condition.unlock()
            session.audio?.condition.lock()
            session.audio?.requestSeek(to: time)
            session.audio?.condition.unlock()
            lastFrame = nil
            lastAudio = nil
        }
    }

    private func handle(_ actions: [SeekStateMachine.Action], at now: Double) {
        for action in actions {
            switch action {
            case .complete(let id, let finished):
                complete(id, finished: finished, landed: nil, statistics: SeekStatistics(), at: now)
            case .startSeek(let id, let target, let exact):
                guard let session = currentSession else { continue }
                if let video = session.video {
                    video.condition.lock()
                    video.requestSeek(id: id.rawValue, to: target, mode: exact ? .exact : .keyframe)
                    video.condition.unlock()
                }
                if let audio = session.audio {
                    audio.condition.lock()
                    audio.requestSeek(to: target)
                    audio.condition.unlock()
                }
                perform(control.seekStarted(), at: now)
            }
        }
    }

    private func complete(_ id: SeekID, finished: Bool, landed: MediaTime?, statistics: SeekStatistics, at now: Double) {
        guard let record = seekRecords.removeValue(forKey: id) else { return }
        emit(.seekCompleted(id: id.rawValue, finished: finished, landed: landed, statistics: statistics,
                            latency: now - record.requestedAt), item: record.item, at: now)
        record.completion?(finished)
    }

    /// Applies the landing of the seek in flight, if the decoder has landed (under a manual clock, only once the
    /// pipelines have settled, so that what follows does not depend on thread timing).
    /// Returns whether it applied one (false while the decoders have not landed yet).
    @discardableResult
    func applyLanding(requireSettled: Bool) -> Bool {
        guard let id = seeks.currentSeek, let record = seekRecords[id], let session = currentSession else { return false }
        if requireSettled && !isSettled() { return false }
        var landed = record.target
        var statistics = SeekStatistics()
        var failure: MediaError?
        if let video = session.video {
            video.condition.lock()
            let landing = video.takeLanding(id: id.rawValue)
            video.condition.unlock()
            guard let landing else { return false }
            statistics = landing.statistics
            failure = landing.error
            if !record.exact, let frame = landing.frame { landed = frame.time }
        } else if let audio = session.audio {
            audio.condition.lock()
            let working = audio.isWorking
            audio.condition.unlock()
            if working { return false }
        }
        let now = clockNow()
        if let failure {
            handle(seeks.failed(id), at: now)
            emit(.failedToPlayToEnd(error: failure.description), at: now)
            perform(control.seekFinished(), at: now)
            return true
        }
        let actions = seeks.decoderLanded(id, at: landed)
        anchorItemTime = landed
        anchorClock = now
        lastFrame = nil
        lastAudio = nil
        endReported = false
        if !record.exact, let audio = session.audio, landed != record.target {
            audio.condition.lock()
            audio.requestSeek(to: landed)
            audio.condition.unlock()
        }
        for action in actions {
            if case .complete(let done, let finished) = action {
                complete(done, finished: finished, landed: finished ? landed : nil, statistics: statistics, at: now)
            }
        }
        emit(.timeJumped, at: now)
        observers.jumped(engine: self, at: now)
        present(at: now)
        updateBuffering(at: now)
        perform(control.seekFinished(), at: now)
        return true
    }
}
