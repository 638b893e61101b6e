import Loading
import Locking
import Playback
import Posters

/// Handling one input (locked): the planner decides, the controller performs its actions on the pool, the
/// players and the loader.
extension FeedController {
    func step(_ input: FeedState.Input, _ state: inout FeedState) {
        switch input {
        case .scroll(let index, let speed):
            guard entries.indices.contains(index) else { return }
            let moved = state.planner.active != index
            if moved { emit(.visible(index: index), &state) }
            perform(state.planner.scroll(to: index, speed: speed), &state)
            updatePosters(visible: index, &state)
            if moved, state.failed.contains(index) {
                // Scrolled onto an item that failed before: the user sees its error cell.
                state.summary.activations += 1
                state.summary.loaderImpressions += 1
            }
        case .network(let profile):
            perform(state.planner.networkChanged(profile), &state)
        case .prefetchEnded(let index, let task, let result):
            guard var slot = state.slots[index], let prefetch = slot.prefetch, ObjectIdentifier(prefetch) == task
            else { return }
            slot.prefetch = nil
            state.slots[index] = slot
            let bytes = heldBytes(index, limit: slot.prefetchLimit)
            switch result {
            case .success:
                if let fallback = slot.prefetchFallback {
                    // An inactive video's header came: now what its first pictures need.
                    fetchFirstPictures(index, fallback: fallback, &state)
                    break
                }
                state.summary.prefetchesFinished += 1
                emit(.prefetch(index: index, byteLimit: slot.prefetchLimit, bytes: bytes, outcome: .finished), &state)
                perform(state.planner.finished(index), &state)
            case .failure(let error):
                state.summary.prefetchesFailed += 1
                emit(
                    .prefetch(
                        index: index, byteLimit: slot.prefetchLimit, bytes: bytes, outcome: .failed(error.description)),
                    &state)
                fail(index, error.description, &state)
            }
        case .player(let index, _, let event):
            playerEvent(event, index: index, &state)
        case .playerFreed:
            for index in state.slots.keys.sorted() where state.slots[index]?.waitsForPlayer == true {
                switch state.planner.state(of: index) {
                case .active: attach(index, active: true, &state)
                case .prepared: attach(index, active: false, &state)
                default: state.slots[index]?.waitsForPlayer = false
                }
            }
        case .trim:
            trim(&state)
        case .posterReady(let index, let fromCache):
            posterReady(index, fromCache: fromCache, &state)
        case .posterFailed(let index):
            state.posters[index]?.task = nil
        }
        updatePreparedPriority(&state)
        sampleMemory(&state)
    }

    /// Performs the planner's actions in order.
    func perform(_ actions: [PrefetchPlanner.Action], _ state: inout FeedState) {
        for action in actions {
            switch action {
            case .start(let index, let limit): startPrefetch(index, limit: limit, &state)
            case .cancel(let index): cancelPrefetch(index, &state)
            case .prepare(let index): attach(index, active: false, &state)
            case .release(let index): detach(index, &state)
            case .activate(let index): activate(index, &state)
            case .deactivate(let index): deactivate(index, &state)
            }
        }
    }

    /// Marks `index` failed for good: the planner moves on without it.
    func fail(_ index: Int, _ reason: String, at time: Double? = nil, _ state: inout FeedState) {
        guard !state.failed.contains(index) else { return }
        state.failed.insert(index)
        state.summary.failures += 1
        emit(.failed(index: index, error: reason), at: time, &state)
        if state.planner.active == index, let slot = state.slots[index], !slot.firstFrameReported {
            state.summary.loaderImpressions += 1
            state.slots[index]?.firstFrameReported = true
        }
        perform(state.planner.failed(index), &state)
    }

    // MARK: Prefetch

    private func startPrefetch(_ index: Int, limit: Int64?, _ state: inout FeedState) {
        let url = entries[index].url
        guard RemoteLoading.isRemote(url) else {
            // A local file is there already: nothing to fetch, nothing to count.
            perform(state.planner.finished(index), &state)
            return
        }
        state.summary.prefetchesStarted += 1
        // An inactive video: its header first, then what its first pictures need.
        let policy = configuration.policy
        let fromHeader =
            entries[index].kind == .video && policy.inactiveVideoFromHeader
            && (limit.map { $0 > policy.inactiveVideoHeaderBytes } ?? false)
        let first = fromHeader ? policy.inactiveVideoHeaderBytes : limit
        emit(
            .prefetch(index: index, byteLimit: first, bytes: heldBytes(index, limit: first), outcome: .started), &state)
        launchPrefetch(index, limit: first, fallback: fromHeader ? limit : nil, &state)
    }

    /// Goes on with an inactive video whose header is held: up to where its first
    /// ``PrefetchPolicy/inactiveVideoSeconds`` end (its first pictures), as its container's index says (at most
    /// ``PrefetchPolicy/inactiveVideoMaxBytes``), or to `fallback` when the header does not tell.
    private func fetchFirstPictures(_ index: Int, fallback: Int64, _ state: inout FeedState) {
        let url = entries[index].url
        let policy = configuration.policy
        let header = loading.cache.heldPrefix(of: url, upTo: policy.inactiveVideoHeaderBytes)
        let needed = FirstPictures.bytes(
            header: header.bytes, totalLength: header.totalLength, url: url, seconds: policy.inactiveVideoSeconds)
        let limit = needed.map { min($0, policy.inactiveVideoMaxBytes) } ?? fallback
        launchPrefetch(index, limit: limit, fallback: nil, &state)
    }

    private func launchPrefetch(_ index: Int, limit: Int64?, fallback: Int64?, _ state: inout FeedState) {
        let box = Locked<PrefetchTask?>(nil)
        let task = loading.prefetch(entries[index].url, upTo: limit) { [weak self] _ in
            guard let self, let task = box.withLock({ $0 }) else { return }
            self.prefetchCompleted(index: index, task: task)
        }
        box.withLock { $0 = task }
        var slot = state.slots[index] ?? FeedState.Slot()
        slot.prefetch = task
        slot.prefetchLimit = limit
        slot.prefetchFallback = fallback
        state.slots[index] = slot
        // Held already: it ended before the handler could find it.
        if let result = task.result {
            step(.prefetchEnded(index: index, task: ObjectIdentifier(task), result: result), &state)
        }
    }

    private func cancelPrefetch(_ index: Int, _ state: inout FeedState) {
        guard let task = state.slots[index]?.prefetch else { return }
        task.cancel()
        state.slots[index]?.prefetch = nil
        state.summary.prefetchesCancelled += 1
        let limit = state.slots[index]?.prefetchLimit
        emit(
            .prefetch(index: index, byteLimit: limit, bytes: heldBytes(index, limit: limit), outcome: .cancelled),
            &state)
        dropIfEmpty(index, &state)
    }

    /// Bytes of item `index` held in the cache, within `limit`.
    func heldBytes(_ index: Int, limit: Int64?) -> Int64 {
        loading.cache.cachedRanges(of: entries[index].url).reduce(Int64(0)) { total, range in
            let upper = limit.map { min(range.upperBound, $0) } ?? range.upperBound
            return total + max(upper - range.lowerBound, 0)
        }
    }

    func dropIfEmpty(_ index: Int, _ state: inout FeedState) {
        guard let slot = state.slots[index], slot.player == nil, slot.prefetch == nil, slot.activatedAt == nil,
            !slot.waitsForPlayer
        else { return }
        state.slots[index] = nil
    }

    // MARK: Players

    /// Gives item `index` a pooled player: to play it (`active`) or to hold it paused on its first frame.
    private func attach(_ index: Int, active: Bool, _ state: inout FeedState) {
        var slot = state.slots[index] ?? FeedState.Slot()
        if slot.player == nil {
            guard let player = pool.tryAcquire() else {
                if !slot.waitsForPlayer { state.summary.poolWaits += 1 }
                slot.waitsForPlayer = true
                state.slots[index] = slot
                return
            }
            let playerIndex = pool.index(of: player)
            let waited = slot.waitsForPlayer
            state.summary.poolHits += waited ? 0 : 1
            slot.waitsForPlayer = false
            let item = PlayerItem(url: entries[index].url, loading: loading)
            if !active {
                item.loadingPriority = .prefetch
                item.preferredForwardBufferDuration = configuration.preparedBuffer
            }
            // Numbered before the item goes in: a file that fails to open (or a first frame) can be reported
            // before replaceCurrentItem returns, and its event must not pass for one of the player's earlier item.
            slot.since = PlayerEvent.makeSequenceNumber()
            player.replaceCurrentItem(with: item)
            slot.player = player
            slot.playerIndex = playerIndex
            slot.item = item
            slot.hasFrame = false
            slot.playing = false
            emit(.poolAcquire(player: playerIndex, index: index, waited: waited), &state)
            if !active { emit(.prepared(index: index, player: playerIndex, ready: false), &state) }
        }
        state.slots[index] = slot
        if active { startPlaying(index, &state) }
    }

    /// Gives item `index`'s player back to the pool.
    func detach(_ index: Int, _ state: inout FeedState) {
        guard var slot = state.slots[index] else { return }
        slot.waitsForPlayer = false
        if let player = slot.player {
            let playerIndex = slot.playerIndex ?? -1
            slot.player = nil
            slot.playerIndex = nil
            slot.item = nil
            slot.hasFrame = false
            slot.playing = false
            state.slots[index] = slot
            pool.release(player)
            emit(.poolRelease(player: playerIndex, index: index), &state)
            if state.slots.values.contains(where: \.waitsForPlayer) { step(.playerFreed, &state) }
        } else {
            state.slots[index] = slot
        }
        dropIfEmpty(index, &state)
    }

    private func activate(_ index: Int, _ state: inout FeedState) {
        var slot = state.slots[index] ?? FeedState.Slot()
        state.summary.activations += 1
        slot.activatedAt = now
        slot.activatedPrepared = slot.player != nil
        slot.activatedWithFrame = slot.player != nil && slot.hasFrame
        slot.frameShown = false
        slot.firstFrameReported = false
        slot.looped = false
        slot.stalledSince = nil
        state.slots[index] = slot
        emit(.active(index: index, prepared: slot.activatedPrepared, hasFrame: slot.activatedWithFrame), &state)
        if RemoteLoading.isRemote(entries[index].url) {
            state.linkClaim?.release()
            state.linkClaim = loading.cache.claimLink()
        }
        attach(index, active: true, &state)
    }

    /// The active item's player plays (a video) with playback priority on the link.
    private func startPlaying(_ index: Int, _ state: inout FeedState) {
        guard let slot = state.slots[index], let player = slot.player, let item = slot.item else { return }
        item.loadingPriority = .playback
        item.preferredForwardBufferDuration = configuration.activeForwardBuffer
        if entries[index].kind == .video { player.play() }
        checkFirstFrame(index, at: now, &state)
    }

    private func deactivate(_ index: Int, _ state: inout FeedState) {
        guard var slot = state.slots[index], let since = slot.activatedAt else { return }
        let now = self.now
        state.summary.watchedSeconds += now - since
        state.recordPlayed(index, bytes: bytesPlayed(index: index, slot: slot))
        if let stalled = slot.stalledSince {
            state.summary.stallSeconds += now - stalled
            slot.stalledSince = nil
        }
        if !slot.firstFrameReported && !state.failed.contains(index) {
            // Left before it started: the user waited (a spinner, over its first frame or not) if that lasted.
            if now - since > configuration.spinnerDelay { state.summary.loaderImpressions += 1 }
            if slot.hasFrame { state.summary.frozenStarts += 1 }
        }
        slot.activatedAt = nil
        state.slots[index] = slot
        state.linkClaim?.release()
        state.linkClaim = nil
        detach(index, &state)
    }

    /// The bytes playing item `index` needed, up to where it was watched (all of it once it looped).
    func bytesPlayed(index: Int, slot: FeedState.Slot) -> Int64 {
        guard let item = slot.item, let timeline = item.byteTimeline else { return 0 }
        if slot.looped || entries[index].kind == .image { return timeline.totalLength ?? 0 }
        return timeline.offset(atSeconds: item.currentTime().seconds) ?? 0
    }
}
