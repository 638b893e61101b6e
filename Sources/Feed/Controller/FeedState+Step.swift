import Loading
import Playback

/// Handling one input: the planner decides what loads, the state what each item and player does; the work comes
/// back to the driver, in order.
extension FeedState {
    /// Handles `input` at feed time `now`, with `facts` read of the items' players (by item), the bandwidth
    /// `estimate` read before (bits per second; nil: none) and the servers the transport had a connection to
    /// (`connected`; nil: not read, nothing is preconnected); returns the work to do, in order.
    mutating func step(
        _ input: Input, at now: Double, facts: [Int: ItemFacts], estimate: Double? = nil,
        connected: Set<HTTPOrigin>? = nil
    ) -> [FeedWork] {
        self.now = now
        self.facts = facts
        self.estimate = estimate
        work = []
        guard !invalidated else { return [] }
        handle(input)
        if handsClaimOver {
            // The item left held the claim, and none on screen took it over.
            handsClaimOver = false
            linkClaimed = false
            work.append(.releaseLink(.active))
        }
        startWaitingCells()
        updatePaging()
        updatePreparedPriority()
        if case .memorySampled = input {
            // The sample asked for: no other one.
        } else if now - lastMemorySample >= Self.memorySampleInterval || summary.peakMemory < 0 {
            lastMemorySample = now
            work.append(.sampleMemory)
        }
        chooseRenditions()
        capVariants()
        if let connected { preconnect(around: connected) }
        defer { work = [] }
        return work
    }

    private mutating func handle(_ input: Input) {
        switch input {
        case .scroll(let index, let speed):
            guard entries.indices.contains(index) else { return }
            if configuration.layout.isGrid { return scrollGrid(to: index, speed: speed) }
            let moved = planner.active != index
            if moved { emit(.visible(index: index)) }
            perform(planner.scroll(to: index, speed: speed))
            noteSizing()
            updatePosters(visible: index)
            if moved, failed.contains(index) {
                // Scrolled onto an item that failed before: the user sees its error cell.
                summary.activations += 1
                summary.loaderImpressions += 1
            }
        case .network(let profile):
            perform(planner.networkChanged(profile))
        case .play(let index):
            if cappedItems[index] == false {
                cappedItems[index] = true
                summary.cappedItemsTapped += 1
            }
            perform(planner.play(index))
        case .trim:
            trim()
        case .prefetchEnded(let index, let id, let result):
            prefetchEnded(index, id: id, result: result)
        case .player(let player, let event):
            guard let (index, slot) = slots.first(where: { $0.value.playerIndex == player }),
                event.sequenceNumber > slot.since
            else { return }
            playerEvent(event, index: index)
        case .posterReady(let index, let fromCache):
            posterReady(index, fromCache: fromCache)
        case .posterFailed(let index):
            posterSlots[index]?.requested = false
        case .loaded(let index, let player, let since):
            guard slots[index]?.playerIndex == player else { return }
            slots[index]?.since = since
        case .playerUnavailable(let index, let player):
            guard slots[index]?.playerIndex == player else { return }
            slots[index]?.playerIndex = nil
            slots[index]?.waitsForPlayer = true
            summary.poolWaits += 1
        case .cacheTrimmed(let count):
            summary.trims += count
        case .memorySampled(let resident):
            memorySampled(resident)
        case .memoryReleased(let over):
            releasingMemory = false
            if over { trim() }
        case .append(let page):
            append(page)
        case .pageLoaded(let count, let result):
            pageLoaded(after: count, result)
        case .focus(let index):
            focus(index)
        case .sizeProbed(let index, let result):
            sizeProbed(index, result)
        }
    }

    /// The planner's actions, in order.
    mutating func perform(_ actions: [PrefetchPlanner.Action]) {
        for action in actions {
            switch action {
            case .start(let index, let limit): startPrefetch(index, limit: limit)
            case .cancel(let index): cancelPrefetch(index)
            case .prepare(let index): attach(index, active: false)
            case .release(let index): detach(index)
            case .activate(let index): activate(index)
            case .deactivate(let index): deactivate(index)
            case .capped(let index, let bytes, let cap):
                if cappedItems[index] == nil {
                    cappedItems[index] = false
                    summary.cappedItems += 1
                }
                emit(.capped(index: index, bytes: bytes, cap: cap))
            case .probeSize(let index):
                guard let url = entries[index].sizeProbeURL else { continue }
                summary.sizeProbes += 1
                work.append(.probeSize(index: index, url: url))
            }
        }
    }

    /// Marks `index` failed for good: the planner moves on without it.
    mutating func fail(_ index: Int, _ reason: String, at time: Double? = nil) {
        guard !failed.contains(index) else { return }
        failed.insert(index)
        summary.failures += 1
        emit(.failed(index: index, error: reason), at: time)
        if planner.isVisible(index), let slot = slots[index], !slot.firstFrameReported {
            summary.loaderImpressions += 1
            slots[index]?.firstFrameReported = true
        }
        perform(planner.failed(index))
    }

    /// Forgets item `index`'s slot once it holds nothing.
    mutating func dropIfEmpty(_ index: Int) {
        guard let slot = slots[index], slot.playerIndex == nil, slot.prefetch == nil, slot.activatedAt == nil,
            !slot.waitsForPlayer
        else { return }
        slots[index] = nil
    }

    // MARK: Prefetch

    private mutating func startPrefetch(_ index: Int, limit: Int64?) {
        guard RemoteLoading.isRemote(entries[index].url) else {
            // A local file is there already: nothing to fetch, nothing to count.
            perform(planner.finished(index))
            return
        }
        summary.prefetchesStarted += 1
        // An inactive video: its header first, then what its first pictures need.
        let policy = configuration.policy
        let fromHeader =
            entries[index].kind == .video && policy.inactiveVideoFromHeader
            && (limit.map { $0 > policy.inactiveVideoHeaderBytes } ?? false)
        let first = fromHeader ? policy.inactiveVideoHeaderBytes : limit
        let id = newPrefetch(index, fallback: fromHeader ? limit : nil)
        work.append(.startPrefetch(index: index, id: id, limit: first, announce: true, time: now))
    }

    /// Numbers a new prefetch of item `index` and makes it the item's.
    private mutating func newPrefetch(_ index: Int, fallback: Int64?) -> UInt64 {
        nextPrefetch += 1
        var slot = slots[index] ?? Slot()
        slot.prefetch = nextPrefetch
        slot.prefetchFallback = fallback
        slots[index] = slot
        return nextPrefetch
    }

    private mutating func prefetchEnded(_ index: Int, id: UInt64, result: Result<Void, MediaError>) {
        guard var slot = slots[index], slot.prefetch == id else { return }
        slot.prefetch = nil
        slots[index] = slot
        switch result {
        case .success:
            if let fallback = slot.prefetchFallback {
                // An inactive video's header came: now what its first pictures need.
                work.append(.endPrefetch(index: index, id: id, cancel: false, outcome: nil, time: now))
                let next = newPrefetch(index, fallback: nil)
                work.append(.startFirstPictures(index: index, id: next, fallback: fallback))
                return
            }
            summary.prefetchesFinished += 1
            work.append(.endPrefetch(index: index, id: id, cancel: false, outcome: .finished, time: now))
            perform(planner.finished(index))
        case .failure(let error):
            summary.prefetchesFailed += 1
            work.append(
                .endPrefetch(index: index, id: id, cancel: false, outcome: .failed(error.description), time: now))
            fail(index, error.description)
        }
    }

    private mutating func cancelPrefetch(_ index: Int) {
        guard let id = slots[index]?.prefetch else { return }
        slots[index]?.prefetch = nil
        summary.prefetchesCancelled += 1
        work.append(.endPrefetch(index: index, id: id, cancel: true, outcome: .cancelled, time: now))
        dropIfEmpty(index)
    }
}
