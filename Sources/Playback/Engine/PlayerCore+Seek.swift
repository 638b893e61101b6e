/// Seeks: requests from any thread, landings applied by the engine thread.
extension PlayerCore {
    /// Seeks the current item ("latest wins": a newer seek completes this one with false at once).
    func seek(item: PlayerItem?, to time: MediaTime, exact: Bool, origin: SeekOrigin) async -> Bool {
        await withCheckedContinuation { continuation in
            requestSeek(item: item, to: time, exact: exact, origin: origin) { continuation.resume(returning: $0) }
        }
    }

    /// Asks for a seek now, on the caller's thread; `completion` is called exactly once with `finished`, on the
    /// callback executor after the seek's completion event.
    func requestSeek(
        item: PlayerItem?, to time: MediaTime, exact: Bool, origin: SeekOrigin,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        let accepted = mutate { core -> Bool in
            guard !core.state.stopped, let current = core.currentItem, item == nil || item === current,
                core.currentLoaded != nil,
                time.isNumeric || time == .positiveInfinity || time == .negativeInfinity
            else { return false }
            let now = core.clockNow()
            let from = core.reportedTime(at: now)
            var target =
                time.isNumeric
                ? max(time, .zero) : (time == .negativeInfinity ? .zero : (core.currentDuration ?? .zero))
            if let duration = core.currentDuration, target > duration { target = duration }
            let (id, actions) = core.state.seeks.machine.request(target: target, exact: exact)
            core.state.seeks.records[id] = SeekBook.Record(
                item: current, target: target, exact: exact, origin: origin,
                requestedAt: now, completion: completion)
            core.emit(
                .seekRequested(id: id.rawValue, target: target, from: from, exact: exact, origin: origin), at: now)
            core.handle(actions, at: now)
            return true
        }
        // Refused (no ready item, say): nothing was emitted, so this completion is ordered after nothing.
        if !accepted { executor.enqueue { completion(false) } }
    }

    /// Completes every seek in flight with `false`.
    func cancelPendingSeeks(item: PlayerItem? = nil) {
        mutate { core in
            if item == nil || item === core.currentItem { core.cancelAllSeeks(at: core.clockNow()) }
        }
    }

    /// Locked: completes the seek in flight with false; the decoders resume from where the playhead is.
    func cancelAllSeeks(at now: Double) {
        let wasSeeking = state.seeks.isSeeking
        handle(state.seeks.machine.cancelPendingSeeks(), at: now)
        if wasSeeking, let loaded = currentLoaded {
            // The decoders were flushed for the seek: resume from where the playhead is.
            let time = timelineTime(at: now)
            loaded.video?.requestSeek(id: 0, to: time, mode: .exact)
            loaded.audio?.requestSeek(to: time)
            loaded.timedMetadata?.seek(to: time)
            loaded.text?.seek(to: time)
            state.presentation.flushed()
        }
    }

    private func handle(_ actions: [SeekStateMachine.Action], at now: Double) {
        for action in actions {
            switch action {
            case .complete(let id, let finished):
                complete(id, finished: finished, landed: nil, statistics: SeekStatistics(), at: now)
            case .startSeek(let id, let target, let exact):
                guard let loaded = currentLoaded else { continue }
                loaded.video?.requestSeek(id: id.rawValue, to: target, mode: exact ? .exact : .keyframe)
                loaded.audio?.requestSeek(to: target)
                loaded.timedMetadata?.seek(to: target)
                loaded.text?.seek(to: target)
                perform(state.control.seekStarted(), at: now)
            }
        }
    }

    /// Emits the seek's completion event and hands its completion handler to the callback executor.
    private func complete(_ id: SeekID, finished: Bool, landed: MediaTime?, statistics: SeekStatistics, at now: Double)
    {
        if let handler = completed(id, finished: finished, landed: landed, statistics: statistics, at: now) {
            executor.enqueue(handler)
        }
    }

    /// Emits the seek's completion event and returns its completion handler (nil without one), for the caller to
    /// hand to the executor.
    private func completed(
        _ id: SeekID, finished: Bool, landed: MediaTime?, statistics: SeekStatistics, at now: Double
    ) -> (@Sendable () -> Void)? {
        guard let record = state.seeks.records.removeValue(forKey: id) else { return nil }
        emit(
            .seekCompleted(
                id: id.rawValue, finished: finished, landed: landed, statistics: statistics,
                latency: now - record.requestedAt), item: record.item, at: now)
        guard let completion = record.completion else { return nil }
        return { completion(finished) }
    }

    /// Applies the landing of the seek in flight, if the decoder has landed (with `requireSettled`, as the manual
    /// clock asks, only once the pipelines have settled, so that what follows does not depend on thread timing).
    /// Returns whether it applied one (false while the decoders have not landed yet).
    @discardableResult
    func applyLanding(requireSettled: Bool) -> Bool {
        guard let id = state.seeks.current, let record = state.seeks.records[id], let loaded = currentLoaded
        else { return false }
        if requireSettled && !isSettled() { return false }
        var landed = record.target
        var statistics = SeekStatistics()
        var failure: MediaError?
        if let video = loaded.video {
            guard let landing = video.takeLanding(id: id.rawValue) else { return false }
            statistics = landing.statistics
            failure = landing.error
            if !record.exact, let frame = landing.frame { landed = frame.time }
        } else if let audio = loaded.audio, audio.snapshot().isWorking {
            return false
        }
        let now = clockNow()
        if let failure {
            handle(state.seeks.machine.failed(id), at: now)
            emit(.failedToPlayToEnd(error: failure.description), at: now)
            perform(state.control.seekFinished(), at: now)
            return true
        }
        let actions = state.seeks.machine.decoderLanded(id, at: landed)
        state.timeline.anchor(landed, at: now)
        state.presentation.landed()
        if !record.exact, landed != record.target {
            loaded.audio?.requestSeek(to: landed)
            // A keyframe before the target: its time's metadata is due from there.
            if landed < record.target { loaded.timedMetadata?.seek(to: landed) }
        }
        // The completion handlers go to the executor after the landing's frame reached the outputs: the caller a
        // handler resumes reads that frame from its layer (the outputs are updated under this lock, the handler
        // runs on the executor's thread, so enqueued before `present` it could run first).
        var handlers: [@Sendable () -> Void] = []
        for case .complete(let done, let finished) in actions {
            let landedAt = finished ? landed : nil
            if let handler = completed(done, finished: finished, landed: landedAt, statistics: statistics, at: now) {
                handlers.append(handler)
            }
        }
        emit(.timeJumped, at: now)
        observersJumped(at: now)
        metadataFlushed()
        present(at: now)
        for handler in handlers { executor.enqueue(handler) }
        updateBuffering(at: now)
        perform(state.control.seekFinished(), at: now)
        return true
    }
}
