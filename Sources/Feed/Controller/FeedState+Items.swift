import Loading
import Playback

/// Players for items (decisions): the active item gets one and plays, the prepared one gets one paused on its
/// first frame; an item left gives its player back, and the next one waiting for a player gets it.
extension FeedState {
    /// Gives item `index` a pooled player: to play it (`active`) or to hold it paused on its first frame.
    mutating func attach(_ index: Int, active: Bool) {
        var slot = slots[index] ?? Slot()
        if slot.playerIndex == nil {
            guard !freePlayers.isEmpty else {
                if !slot.waitsForPlayer { summary.poolWaits += 1 }
                slot.waitsForPlayer = true
                slots[index] = slot
                return
            }
            let player = freePlayers.removeFirst()
            let waited = slot.waitsForPlayer
            summary.poolHits += waited ? 0 : 1
            slot.waitsForPlayer = false
            // Its events count once the driver reports the item in (numbered then, before it goes in).
            slot.since = .max
            slot.playerIndex = player
            slot.priority = active ? .playback : .prefetch
            slot.hasFrame = false
            slot.playing = false
            work.append(.load(index: index, player: player, active: active))
            emit(.poolAcquire(player: player, index: index, waited: waited))
            if !active { emit(.prepared(index: index, player: player, ready: false)) }
        }
        slots[index] = slot
        if active { startPlaying(index) }
    }

    /// Gives item `index`'s player back to the pool; an item waiting for one gets it.
    mutating func detach(_ index: Int) {
        guard var slot = slots[index] else { return }
        slot.waitsForPlayer = false
        if let player = slot.playerIndex {
            slot.playerIndex = nil
            slot.since = .max
            slot.priority = nil
            slot.hasFrame = false
            slot.playing = false
            slots[index] = slot
            work.append(.release(index: index, player: player))
            freePlayers.append(player)
            emit(.poolRelease(player: player, index: index))
            if slots.values.contains(where: \.waitsForPlayer) { playerFreed() }
        } else {
            slots[index] = slot
        }
        dropIfEmpty(index)
    }

    /// A player went back to the pool: the items waiting for one get theirs, in order.
    private mutating func playerFreed() {
        for index in slots.keys.sorted() where slots[index]?.waitsForPlayer == true {
            switch planner.state(of: index) {
            case .active: attach(index, active: true)
            case .prepared: attach(index, active: false)
            default: slots[index]?.waitsForPlayer = false
            }
        }
    }

    mutating func activate(_ index: Int) {
        var slot = slots[index] ?? Slot()
        summary.activations += 1
        // An item that waited on screen for its size probe became active when it came on screen.
        slot.activatedAt = sizingSince.removeValue(forKey: index) ?? now
        slot.activatedPrepared = slot.playerIndex != nil
        slot.activatedWithFrame = slot.playerIndex != nil && slot.hasFrame
        slot.frameShown = false
        slot.firstFrameReported = false
        slot.looped = false
        slot.stalledSince = nil
        slot.waitsToPlay = false
        slots[index] = slot
        emit(.active(index: index, prepared: slot.activatedPrepared, hasFrame: slot.activatedWithFrame))
        showPicture(index)
        if RemoteLoading.isRemote(entries[index].url),
            !(configuration.layout.isGrid && linkClaimed && !handsClaimOver)
        {
            // (A grid's claim, held already for another visible item, stays.) A claim held replaces the one held
            // (the driver's swap leaves no moment without one), that of the item left in this step included.
            work.append(.claimLink(.active))
            linkClaimed = true
            handsClaimOver = false
        }
        attach(index, active: true)
    }

    /// The active item's player plays (a video) with playback priority on the link.
    private mutating func startPlaying(_ index: Int) {
        guard slots[index]?.playerIndex != nil else { return }
        slots[index]?.priority = .playback
        if configuration.layout.isGrid {
            // One visible player has the sound.
            work.append(.setMuted(index: index, muted: index != audible))
            if waitsToPlay(index) {
                // It reads with playback priority and the active buffer, and plays once it holds enough.
                slots[index]?.waitsToPlay = true
                work.append(.play(index: index, video: false))
                checkFirstFrame(index, at: now)
                return
            }
        }
        work.append(.play(index: index, video: entries[index].kind == .video))
        checkFirstFrame(index, at: now)
    }

    mutating func deactivate(_ index: Int) {
        guard var slot = slots[index], let since = slot.activatedAt else { return }
        summary.watchedSeconds += now - since
        recordDwell(now - since)
        recordPlayed(index, bytes: bytesPlayed(index, slot, slot.playerIndex.flatMap { _ in facts[index] }))
        if let stalled = slot.stalledSince {
            summary.stallSeconds += now - stalled
            slot.stalledSince = nil
        }
        if !slot.firstFrameReported && !failed.contains(index) {
            // Left before it started: the user waited (a spinner, over its first frame or not) if that lasted.
            if now - since > configuration.spinnerDelay { summary.loaderImpressions += 1 }
            if slot.hasFrame { summary.frozenStarts += 1 }
        }
        slot.activatedAt = nil
        slot.waitsToPlay = false
        slots[index] = slot
        // Its claim on the link stays until the step's end: the item swiped to takes it over (``handsClaimOver``).
        if linkClaimed { handsClaimOver = true }
        detach(index)
    }
}
