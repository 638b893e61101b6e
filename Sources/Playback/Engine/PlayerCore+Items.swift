import Foundation

/// Items: loading, applying loads, advancing (locked, except `startLoad`).
extension PlayerCore {
    enum AdvanceReason { case itemEnded, requested, replaced }

    /// Decides to load `item` (once): its loader thread starts when the lock is released.
    func startLoading(_ item: PlayerItem) {
        let sources = OpenedSources { [weak self] in self?.wake() }
        let priority = item.loadingPriority
        if priority != .playback { sources.setPriority(priority) }
        guard state.queue.beginLoading(item, sources: sources) else { return }
        item.state.withLock { $0.core = self }
        state.work.append(.startLoad(item, sources))
    }

    /// Unlocked: opens `item` on a loader thread of its own and records the result.
    func startLoad(_ item: PlayerItem, sources: OpenedSources) {
        let rules = read { $0.state.selectionRules }
        let request = LoadedItem.Request(
            url: item.url, name: item.name, withAudio: audioEnabled, videoThreads: decoderThreads,
            decodedVideoBytes: decodedVideoBytes,
            makeSource: item.makeSource,
            loading: item.loading, decryptionKey: item.decryptionKey, sidecars: item.sidecarSubtitles
        ) { groups in
            rules.resolve(groups, explicit: item.state.withLock { $0.explicitSelection })
        }
        Thread.detachNewThread { [weak self] in
            let result: Result<LoadedItem, MediaError>
            do throws(MediaError) {
                result = .success(
                    try LoadedItem.open(request, sources: sources) { [weak self] in
                        self?.wake()
                    })
            } catch {
                result = .failure(error)
            }
            guard let self else {
                if case .success(let loaded) = result { loaded.stop() }
                return
            }
            self.condition.lock()
            if self.state.stopped {
                self.condition.unlock()
                if case .success(let loaded) = result { loaded.stop() }
                return
            }
            self.state.queue.loadFinished(item, result)
            self.signal()
            self.condition.unlock()
        }
    }

    /// Loads the current item and the next one, so that an advance has frames ready (no gap).
    func prepareUpcoming() {
        for item in state.queue.upcoming { startLoading(item) }
    }

    /// Applies finished loads in item creation order: status events, and readiness for the time-control machine.
    func applyLoadResults() {
        guard state.queue.hasResults else { return }
        let (results, stop) = state.queue.takeResults()
        state.work += stop
        let now = clockNow()
        emitUnreportedAudioOutput(at: now)
        for (item, result) in results {
            state.queue.setLoaded(item, result)
            switch result {
            case .success(let loaded):
                loaded.startDeferredDecoding()
                applyReadAhead(item, loaded)
                let actions = item.state.withLock { itemState -> [PlayerItemStatusMachine.Action] in
                    itemState.tracks = loaded.tracks
                    itemState.groups = loaded.groups
                    itemState.selection = loaded.selection
                    itemState.metadata = loaded.metadata
                    itemState.duration = loaded.duration
                    itemState.presentationSize = loaded.presentationSize
                    return itemState.status.becameReady()
                }
                for case .emitStatus(let status, _) in actions {
                    emit(.itemStatus(status, duration: loaded.duration, error: nil), item: item, at: now)
                }
                observeVariants(item, at: now)
                // A choice the app made while the item loaded, then what is selected where there was a choice.
                applySelection(item, loaded, at: now, announce: false)
                announceSelection(item, loaded, at: now)
                if item === currentItem {
                    state.presentation.currentSince = min(state.presentation.currentSince, now)
                    perform(state.control.itemBecameReady(), at: now)
                }
            case .failure(let error):
                markFailed(item, error: error, at: now)
            }
        }
        prepareUpcoming()
    }

    /// How far ahead a remote item is fetched when `preferredForwardBufferDuration` is 0 (automatic), in seconds of
    /// media.
    static let automaticReadAheadSeconds = 30.0

    /// Bounds how far ahead of its readers a remote item's bytes are fetched: `preferredForwardBufferDuration`
    /// seconds of media, or ``automaticReadAheadSeconds``.
    func applyReadAhead(_ item: PlayerItem, _ loaded: LoadedItem) {
        let preferred = item.preferredForwardBufferDuration
        loaded.setReadAhead(seconds: preferred > 0 ? preferred : Self.automaticReadAheadSeconds)
    }

    /// `item`'s `loadingPriority` changed.
    func loadingPriorityChanged(_ item: PlayerItem) {
        let sources = read { $0.state.queue.sources(of: item) }
        sources?.setPriority(item.loadingPriority)
    }

    /// `item`'s `preferredForwardBufferDuration` changed.
    /// The item's time-pitch algorithm changed: its audio, if current, is made again for it.
    func timePitchChanged(_ item: PlayerItem) {
        mutate { core in
            guard item === core.currentItem else { return }
            core.applyAudioRate()
        }
    }

    func forwardBufferChanged(_ item: PlayerItem) {
        mutate { core in
            guard item === core.currentItem || core.state.queue.contains(item), let loaded = core.loaded(item) else {
                return
            }
            core.applyReadAhead(item, loaded)
        }
    }

    /// Reports an adaptive item's variant choices: those made while it loaded, then each as its stream session
    /// decides it (from the session's threads: the event is emitted under the engine's lock, as any input is); and
    /// tells the metrics where they take effect.
    func observeVariants(_ item: PlayerItem, at now: Double) {
        guard let session = item.streamAccess?.session else { return }
        let earlier = session.observeSwitches { [weak self, weak item] change in
            guard let item else { return }
            self?.mutate { core in core.emit(.variantSwitch(change), item: item) }
        }
        for change in earlier { emit(.variantSwitch(change), item: item, at: now) }
        // Where the choices take effect: the reader getting to a segment of another variant (metrics only).
        let read = session.observeVariantsRead { [weak self, weak item] read in
            guard let item else { return }
            self?.mutate { core in core.metrics.variantRead(read, of: item, core: core) }
        }
        if let read { metrics.variantRead(read, of: item, core: self) }
    }

    /// Marks `item` failed (status event), and pauses the player if it is the current item.
    func markFailed(_ item: PlayerItem?, error: MediaError, at now: Double) {
        guard let item else { return }
        let actions = item.state.withLock { itemState -> [PlayerItemStatusMachine.Action] in
            if itemState.error == nil { itemState.error = error }
            return itemState.status.failed(error.description)
        }
        for case .emitStatus(let status, let message) in actions {
            emit(.itemStatus(status, duration: nil, error: message), item: item, at: now)
        }
        if item === currentItem { perform(state.control.itemFailed(), at: now, reason: .itemFailed) }
    }

    /// Makes `next` the current item (nil for none), dropping the old current item.
    func makeCurrent(_ next: PlayerItem?, at now: Double, reason: AdvanceReason) {
        // Loading starts first: the loader thread opens the file while the old item is torn down.
        if let next { startLoading(next) }
        if let old = currentItem {
            if !state.presentation.shownCues.isEmpty {
                // Its cues are taken away with it.
                let outputs = old.state.withLock { $0.legibleOutputs }
                let time = timelineTime(at: now)
                for output in outputs { callback("legibleOutput", output.receive([], itemTime: time)) }
            }
            let leavingTime = reportedTime(at: now)
            old.state.withLock { $0.currentTime = leavingTime }
            if reason == .itemEnded || reason == .requested, let hook = state.willAdvance {
                callback("willAdvanceToNextItem") { hook(old) }
            }
            state.work += state.queue.removeCurrent()
        }
        if let next { state.queue.makeCurrent(next) }
        cancelAllSeeks(at: now)
        state.timeline.anchor(.zero, at: now)
        state.presentation.itemChanged(at: now)
        state.buffering.reset()
        prepareUpcoming()
        emit(.currentItem, at: now)
        var likely: Bool?
        // Under a manual clock the buffer is judged only once settled: on the engine thread (an item ended) wait for
        // the next item's decoder; from an API call, leave it to the next `advance`.
        let judgeNow = !pacing.settlesAtAdvances || reason == .itemEnded
        if pacing.settlesAtAdvances && reason == .itemEnded { settleCurrent() }
        if let loaded = currentLoaded, judgeNow {
            let full =
                loaded.video.map { video in
                    let snapshot = video.snapshot()
                    return snapshot.isFull || snapshot.reachedEnd
                } ?? true
            likely = full ? true : nil
        }
        perform(
            state.control.itemChanged(
                hasItem: currentItem != nil, isReady: currentLoaded != nil,
                likelyToKeepUp: likely), at: now)
        if state.queue.currentFailed { perform(state.control.itemFailed(), at: now, reason: .itemFailed) }
        present(at: now)
    }

    /// Advances to the next queued item (`actionAtItemEnd == .advance`, or `advanceToNextItem()`).
    func advanceToNextItem(at now: Double, reason: AdvanceReason) {
        let items = state.queue.items
        makeCurrent(items.count > 1 ? items[1] : nil, at: now, reason: reason)
    }

    /// Removes `item` from this player (it is being given to another one).
    func detach(_ item: PlayerItem) {
        mutate { core in
            if item === core.currentItem {
                core.makeCurrent(nil, at: core.clockNow(), reason: .replaced)
            } else {
                core.state.work += core.state.queue.remove(item)
            }
        }
    }
}
