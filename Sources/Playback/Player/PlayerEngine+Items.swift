import Foundation
import MediaIO

extension PlayerEngine {
    enum AdvanceReason { case itemEnded, requested, replaced }

    /// Starts loading `item` on a loader thread, unless it is loading or loaded already.
    func startLoading(_ item: PlayerItem) {
        let key = ObjectIdentifier(item)
        guard slots[key] == nil else { return }
        let sources = OpenedSources { [weak self] in self?.wake() }
        slots[key] = .loading(sources)
        loadsInFlight += 1
        item.state.withLock { $0.engine = self }
        let withAudio = audioEnabled
        Thread.detachNewThread { [weak self] in
            let result: Result<ItemSession, MediaError>
            do throws(MediaError) {
                result = .success(try ItemSession.open(url: item.url, name: item.name, withAudio: withAudio,
                                                       makeSource: item.makeSource, sources: sources) { [weak self] in
                    self?.wake()
                })
            } catch {
                result = .failure(error)
            }
            guard let self else {
                if case .success(let session) = result { session.stop() }
                return
            }
            self.condition.lock()
            self.loadsInFlight -= 1
            self.loadResults.append((item, result))
            self.condition.broadcast()
            self.condition.unlock()
        }
    }

    /// Loads the current item and the next one, so that an advance has frames ready (no gap).
    func prepareUpcoming() {
        for item in items.prefix(2) { startLoading(item) }
    }

    /// Applies finished loads in item creation order: status events, and readiness for the time-control machine.
    func applyLoadResults() {
        guard !loadResults.isEmpty else { return }
        let results = loadResults.sorted { $0.0.serial < $1.0.serial }
        loadResults.removeAll()
        let now = clockNow()
        for (item, result) in results {
            let key = ObjectIdentifier(item)
            guard slots[key] != nil, items.contains(where: { $0 === item }) else {
                if case .success(let session) = result { session.stop() }
                continue
            }
            switch result {
            case .success(let session):
                slots[key] = .ready(session)
                let actions = item.state.withLock { state -> [PlayerItemStatusMachine.Action] in
                    state.tracks = session.tracks
                    state.duration = session.duration
                    state.presentationSize = session.presentationSize
                    return state.status.becameReady()
                }
                for case .emitStatus(let status, _) in actions {
                    emit(.itemStatus(status, duration: session.duration, error: nil), item: item, at: now)
                }
                if item === currentItem {
                    currentSince = min(currentSince, now)
                    perform(control.itemBecameReady(), at: now)
                }
            case .failure(let error):
                slots[key] = .failed(error)
                self.item(item, failedWith: error, at: now)
            }
        }
        prepareUpcoming()
    }

    /// Marks `item` failed (status event), and pauses the player if it is the current item.
    func item(_ item: PlayerItem?, failedWith error: MediaError, at now: Double) {
        guard let item else { return }
        let actions = item.state.withLock { state -> [PlayerItemStatusMachine.Action] in
            if state.error == nil { state.error = error }
            return state.status.failed(error.description)
        }
        for case .emitStatus(let status, let message) in actions {
            emit(.itemStatus(status, duration: nil, error: message), item: item, at: now)
        }
        if item === currentItem { perform(control.itemFailed(), at: now, reason: .itemFailed) }
    }

    /// Makes `next` the current item (nil for none), dropping the old current item.
    func makeCurrent(_ next: PlayerItem?, at now: Double, reason: AdvanceReason) {
        // Loading starts first: the loader thread opens the file while the old item is torn down here.
        if let next { startLoading(next) }
        if let old = currentItem {
            let leavingTime = reportedTime(at: now)
            old.state.withLock { $0.currentTime = leavingTime }
            if reason == .itemEnded || reason == .requested, let hook = willAdvance {
                deferCallback("willAdvanceToNextItem") { hook(old) }
            }
            items.removeFirst()
            if !items.contains(where: { $0 === old }) { release(old) }
        }
        if let next {
            if let index = items.firstIndex(where: { $0 === next }) { items.remove(at: index) }
            items.insert(next, at: 0)
        }
        cancelAllSeeks(at: now)
        anchorItemTime = .zero
        anchorClock = now
        lastFrame = nil
        lastAudio = nil
        firstFrameShown = false
        endReported = false
        lastLikelyToKeepUp = nil
        recoveringFromStall = false
        lastDecodeErrors = 0
        currentSince = now
        prepareUpcoming()
        emit(.currentItem, at: now)
        var likely: Bool?
        // Under a manual clock the buffer is judged only once settled: on the engine thread (an item ended) wait for
        // the next item's decoder; from an API call, leave it to the next `advance`.
        if isManual && reason == .itemEnded { settleCurrent() }
        if let session = currentSession, !isManual || reason == .itemEnded {
            let full = session.video.map { v in v.condition.lock(); defer { v.condition.unlock() }; return v.isFull || v.reachedEnd } ?? true
            likely = full ? true : nil
        }
        let isReady = currentSession != nil
        let failed: Bool = {
            guard let item = currentItem, case .failed? = slots[ObjectIdentifier(item)] else { return false }
            return true
        }()
        perform(control.itemChanged(hasItem: currentItem != nil, isReady: isReady, likelyToKeepUp: likely), at: now)
        if failed { perform(control.itemFailed(), at: now, reason: .itemFailed) }
        present(at: now)
    }

    /// Advances to the next queued item (`actionAtItemEnd == .advance`, or `advanceToNextItem()`).
    func advanceToNextItem(at now: Double, reason: AdvanceReason) {
        let next = items.count > 1 ? items[1] : nil
        makeCurrent(next, at: now, reason: reason)
    }

    /// Stops an item's decoding and detaches it from this player.
    func release(_ item: PlayerItem) {
        switch slots.removeValue(forKey: ObjectIdentifier(item)) {
        case .ready(let session)?: session.stop()
        case .loading(let sources)?: sources.closeAll()
        default: break
        }
        item.state.withLock { $0.engine = nil }
    }
}
