import Loading
import Playback

/// What the feed's players report (decisions): first frames, playing and stalls, failures, loops, and the active
/// item's buffer, which decides whether it claims the link.
extension FeedState {
    mutating func playerEvent(_ event: PlayerEvent, index: Int) {
        guard let slot = slots[index] else { return }
        // When it happened: under a manual clock the player's virtual time (the callback may run later).
        let time = manualClock ? event.hostTime - clockOrigin : now
        let active = planner.isVisible(index) && slot.activatedAt != nil
        switch event.kind {
        case .firstFrame:
            slots[index]?.hasFrame = true
            if !active, let player = slot.playerIndex {
                emit(.prepared(index: index, player: player, ready: true), at: time)
            }
        case .timeControlStatus(let status, let reason):
            slots[index]?.playing = status == .playing
            guard active else { break }
            if status == .playing, let stalled = slot.stalledSince {
                let duration = time - stalled
                summary.stallSeconds += duration
                slots[index]?.stalledSince = nil
                emit(.stall(index: index, ended: true, duration: duration), at: time)
            } else if status == .waitingToPlayAtSpecifiedRate, reason == .toMinimizeStalls, slot.firstFrameReported,
                slot.stalledSince == nil
            {
                summary.stalls += 1
                slots[index]?.stalledSince = time
                emit(.stall(index: index, ended: false, duration: 0), at: time)
            }
        case .itemStatus(.failed, _, let error):
            fail(index, error ?? "failed", at: time)
            return
        case .didPlayToEnd:
            guard active, entries[index].kind == .video, configuration.loops, slot.playerIndex != nil else { break }
            slots[index]?.looped = true
            work.append(.loop(index: index))
        default:
            break
        }
        if active {
            checkFirstFrame(index, at: time)
            updateLinkClaim(index)
        }
    }

    /// Reports the active item's first frame on screen once its player shows one, and its start once it (a video)
    /// plays too.
    mutating func checkFirstFrame(_ index: Int, at time: Double) {
        guard let slot = slots[index], let since = slot.activatedAt, slot.hasFrame else { return }
        let latency = max(time - since, 0)
        if !slot.frameShown {
            slots[index]?.frameShown = true
            record(latency: latency, prepared: slot.activatedPrepared)
            emit(.firstFrame(index: index, latency: latency, prepared: slot.activatedPrepared), at: time)
        }
        guard !slot.firstFrameReported, slot.playing || entries[index].kind == .image else { return }
        slots[index]?.firstFrameReported = true
        recordStart(latency: latency, prepared: slot.activatedPrepared)
        if latency > configuration.spinnerDelay { summary.loaderImpressions += 1 }
        emit(.started(index: index, latency: latency, prepared: slot.activatedPrepared), at: time)
    }

    /// The active item claims the link while its buffer is short: under the target after a stall or at the start,
    /// under half of it while playing; never once all its bytes are held.
    mutating func updateLinkClaim(_ index: Int) {
        // In a grid the claim is held while any visible item wants it.
        let wants = (configuration.layout.isGrid ? Array(planner.visible) : [index]).compactMap(wantsLinkClaim)
        guard !wants.isEmpty else { return }
        let wantsClaim = wants.contains(true)
        if wantsClaim && !linkClaimed {
            work.append(.claimLink(.active))
            linkClaimed = true
        } else if !wantsClaim && linkClaimed {
            work.append(.releaseLink(.active))
            linkClaimed = false
        }
    }

    /// Whether item `index` on screen wants the link claimed (nil: it reads no link, or has no player).
    private func wantsLinkClaim(_ index: Int) -> Bool? {
        guard let slot = slots[index], slot.activatedAt != nil, slot.playerIndex != nil,
            RemoteLoading.isRemote(entries[index].url)
        else { return nil }
        let held = (facts[index] ?? ItemFacts()).heldAhead
        let ahead = held?.seconds ?? 0
        let complete = held?.complete ?? false
        let target = configuration.activeBufferTarget
        if complete { return false }
        if slot.stalledSince != nil || !slot.firstFrameReported { return ahead < target }
        return linkClaimed ? ahead < target : ahead < target / 2
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
    mutating func updatePreparedPriority() {
        let onScreen = planner.visible
        let sharing = preparedClaimed
        var preparing = false
        // Every item on screen (the active one alone with one visible) plays with enough held.
        let activePlays = onScreen.allSatisfy { activeHoldsEnough($0, sharing: sharing) }
        for (index, slot) in slots.sorted(by: { $0.key < $1.key })
        where !onScreen.contains(index) && slot.activatedAt == nil && slot.playerIndex != nil {
            // (A grid's prepared row never has the link to itself: four or nine items on screen share it.)
            let starting =
                !configuration.layout.isGrid
                && (activePlays && !canStart(slot, facts[index] ?? ItemFacts()) || lendsEarly(index, slot))
            if starting && RemoteLoading.isRemote(entries[index].url) { preparing = true }
            setPriority(index, starting ? .playback : .prefetch)
        }
        if preparing && !preparedClaimed {
            work.append(.claimLink(.prepared))
            preparedClaimed = true
        } else if !preparing && preparedClaimed {
            work.append(.releaseLink(.prepared))
            preparedClaimed = false
        }
        for shown in onScreen where slots[shown]?.playerIndex != nil && slots[shown]?.activatedAt != nil {
            setPriority(shown, preparing ? .prefetch : .playback)
        }
    }

    /// Item `index`'s reading priority becomes `priority` (work only when it changes).
    private mutating func setPriority(_ index: Int, _ priority: TransferPriority) {
        guard slots[index]?.priority != priority else { return }
        slots[index]?.priority = priority
        work.append(.setPriority(index: index, priority))
    }

    /// Whether the active item `index` plays with ``FeedConfiguration/preparedFetchAbove`` of media held ahead (or
    /// half of it while it gives the link to a prepared item: `sharing`), or all of it.
    private func activeHoldsEnough(_ index: Int, sharing: Bool) -> Bool {
        guard let slot = slots[index] else { return true }
        guard slot.firstFrameReported, slot.stalledSince == nil else { return false }
        guard slot.playerIndex != nil, RemoteLoading.isRemote(entries[index].url) else { return true }
        guard let held = (facts[index] ?? ItemFacts()).heldAhead else { return false }
        return held.seconds >= configuration.preparedFetchAbove / (sharing ? 2 : 1) || held.complete
    }

    /// Whether a prepared item could start at once: its first frame decoded and enough media held from its start.
    func canStart(_ slot: Slot, _ facts: ItemFacts) -> Bool {
        guard slot.hasFrame else { return false }
        let held = facts.heldEndFromStart ?? 0
        return held >= min(BufferingState.maximumStartThreshold, facts.duration - 0.05)
    }
}
