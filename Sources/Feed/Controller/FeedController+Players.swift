import Loading
import Playback

/// What the feed's players report (locked): first frames, playing and stalls, failures, loops, and the active
/// item's buffer, which decides whether it claims the link.
extension FeedController {
    func playerEvent(_ event: PlayerEvent, index: Int, _ state: inout FeedState) {
        guard let slot = state.slots[index] else { return }
        // When it happened: under a manual clock the player's virtual time (the callback may run later).
        let time = clock.manualClock == nil ? now : event.hostTime - start
        let active = state.planner.active == index && slot.activatedAt != nil
        switch event.kind {
        case .firstFrame:
            state.slots[index]?.hasFrame = true
            if !active, let player = slot.playerIndex {
                emit(.prepared(index: index, player: player, ready: true), at: time, &state)
            }
        case .timeControlStatus(let status, let reason):
            state.slots[index]?.playing = status == .playing
            guard active else { break }
            if status == .playing, let stalled = slot.stalledSince {
                let duration = time - stalled
                state.summary.stallSeconds += duration
                state.slots[index]?.stalledSince = nil
                emit(.stall(index: index, ended: true, duration: duration), at: time, &state)
            } else if status == .waitingToPlayAtSpecifiedRate, reason == .toMinimizeStalls, slot.firstFrameReported,
                slot.stalledSince == nil
            {
                state.summary.stalls += 1
                state.slots[index]?.stalledSince = time
                emit(.stall(index: index, ended: false, duration: 0), at: time, &state)
            }
        case .itemStatus(.failed, _, let error):
            fail(index, error ?? "failed", at: time, &state)
            return
        case .didPlayToEnd:
            guard active, entries[index].kind == .video, configuration.loops, let player = slot.player else { break }
            state.slots[index]?.looped = true
            player.seek(to: .zero, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity) { _ in }
            player.play()
        default:
            break
        }
        if active {
            checkFirstFrame(index, at: time, &state)
            updateLinkClaim(index, &state)
        }
    }

    /// Reports the active item's first frame on screen once its player shows one, and its start once it (a video)
    /// plays too.
    func checkFirstFrame(_ index: Int, at time: Double, _ state: inout FeedState) {
        guard let slot = state.slots[index], let since = slot.activatedAt, slot.hasFrame else { return }
        let latency = max(time - since, 0)
        if !slot.frameShown {
            state.slots[index]?.frameShown = true
            state.record(latency: latency, prepared: slot.activatedPrepared)
            emit(.firstFrame(index: index, latency: latency, prepared: slot.activatedPrepared), at: time, &state)
        }
        guard !slot.firstFrameReported, slot.playing || entries[index].kind == .image else { return }
        state.slots[index]?.firstFrameReported = true
        state.recordStart(latency: latency, prepared: slot.activatedPrepared)
        if latency > configuration.spinnerDelay { state.summary.loaderImpressions += 1 }
        emit(.started(index: index, latency: latency, prepared: slot.activatedPrepared), at: time, &state)
    }

    /// The active item claims the link while its buffer is short: under the target after a stall or at the start,
    /// under half of it while playing; never once all its bytes are held.
    func updateLinkClaim(_ index: Int, _ state: inout FeedState) {
        guard let slot = state.slots[index], let item = slot.item, RemoteLoading.isRemote(entries[index].url) else {
            return
        }
        let held = Self.heldAhead(item)
        let ahead = held?.seconds ?? 0
        let complete = held?.complete ?? false
        let target = configuration.activeBufferTarget
        let claimed = state.linkClaim != nil
        let wantsClaim: Bool
        if complete {
            wantsClaim = false
        } else if slot.stalledSince != nil || !slot.firstFrameReported {
            wantsClaim = ahead < target
        } else {
            wantsClaim = claimed ? ahead < target : ahead < target / 2
        }
        if wantsClaim && !claimed {
            state.linkClaim = loading.cache.claimLink()
        } else if !wantsClaim && claimed {
            state.linkClaim?.release()
            state.linkClaim = nil
        }
    }

    /// A prepared item's start comes before the active item's read-ahead. While the active item plays (it started,
    /// is not stalled, and holds at least ``FeedConfiguration/preparedFetchAbove`` of media ahead of its playhead,
    /// or all of it; it stops sharing under half of that), a prepared player without its first frame, or with less
    /// media than a player needs to start (``BufferingState/maximumStartThreshold``), has the link to itself: it
    /// reads with playback priority, and the active item's reading becomes prefetch and holds, with the prefetches,
    /// under a claim on the link the feed takes meanwhile (the header, the first keyframe and half a second: a few
    /// hundred kilobytes). Once the prepared item has them, or the active item runs short, stalls or starts, the
    /// active item reads with playback priority again and the prepared one with prefetch priority. Sharing the link
    /// was not enough: over a shaped link the active item's running transfer kept the queue full and a new one got
    /// a few kilobytes a second (a 200 KB range took 1.2-2.5 s beside a running download on the 8 Mbit/s port, 0.2
    /// s alone), and a third of the prepared items of the 8 Mbit/s swipe trace had no frame at their swipe, 2 s
    /// later, with 30-60 KB of their bytes. On the 3G trace a prepared item with its frame but only that frame's
    /// bytes took 0.2-0.6 s to start after its swipe.
    func updatePreparedPriority(_ state: inout FeedState) {
        let active = state.planner.active
        let sharing = state.preparedClaim != nil
        var preparing = false
        let activePlays = active.map { activeHoldsEnough($0, sharing: sharing, state) } ?? true
        for (index, slot) in state.slots where index != active && slot.activatedAt == nil {
            guard let item = slot.item else { continue }
            let starting = activePlays && !Self.canStart(slot, item)
            if starting && RemoteLoading.isRemote(entries[index].url) { preparing = true }
            let wanted: TransferPriority = starting ? .playback : .prefetch
            if item.loadingPriority != wanted { item.loadingPriority = wanted }
        }
        if preparing && state.preparedClaim == nil {
            state.preparedClaim = loading.cache.claimLink()
        } else if !preparing, let claim = state.preparedClaim {
            claim.release()
            state.preparedClaim = nil
        }
        if let active, let item = state.slots[active]?.item, state.slots[active]?.activatedAt != nil {
            let wanted: TransferPriority = preparing ? .prefetch : .playback
            if item.loadingPriority != wanted { item.loadingPriority = wanted }
        }
    }

    /// Whether the active item `index` plays with ``FeedConfiguration/preparedFetchAbove`` of media held ahead (or
    /// half of it while it gives the link to a prepared item: `sharing`), or all of it.
    private func activeHoldsEnough(_ index: Int, sharing: Bool, _ state: FeedState) -> Bool {
        guard let slot = state.slots[index] else { return true }
        guard slot.firstFrameReported, slot.stalledSince == nil else { return false }
        guard let item = slot.item, RemoteLoading.isRemote(entries[index].url) else { return true }
        guard let held = Self.heldAhead(item) else { return false }
        return held.seconds >= configuration.preparedFetchAbove / (sharing ? 2 : 1) || held.complete
    }

    /// Whether a prepared item could start at once: its first frame decoded and enough media held from its start.
    static func canStart(_ slot: FeedState.Slot, _ item: PlayerItem) -> Bool {
        guard slot.hasFrame else { return false }
        let held = heldEnd(item, from: 0) ?? 0
        let duration = item.duration.isNumeric ? item.duration.seconds : .infinity
        return held >= min(BufferingState.maximumStartThreshold, duration - 0.05)
    }

    /// What `item` holds ahead of its playhead: seconds of media, and whether that reaches its end (nil: no loaded
    /// range holds the playhead).
    static func heldAhead(_ item: PlayerItem) -> (seconds: Double, complete: Bool)? {
        let position = item.currentTime().seconds
        guard let end = heldEnd(item, from: position) else { return nil }
        let duration = item.duration.isNumeric ? item.duration.seconds : .infinity
        return (max(end - position, 0), end >= duration - 0.05)
    }

    /// The end of the loaded time range of `item` that holds `position` (nil: none does).
    static func heldEnd(_ item: PlayerItem, from position: Double) -> Double? {
        item.loadedTimeRanges.first { $0.start.seconds <= position + 0.001 && $0.end.seconds >= position }?.end.seconds
    }
}
