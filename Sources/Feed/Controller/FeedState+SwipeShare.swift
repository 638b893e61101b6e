import Loading
import Streaming

/// The next item's first pictures before the on-screen item's read-ahead (decisions, ``SwipeShare``): the dwells
/// seen, and whether a prepared item without its frame gets the link now.
extension FeedState {
    /// Remembers a dwell (seconds on an item before the user left it), the latest ``SwipeShare/dwellMemory``.
    mutating func recordDwell(_ seconds: Double) {
        let memory = max(configuration.swipeShare.dwellMemory, 1)
        dwells.append(seconds)
        if dwells.count > memory { dwells.removeFirst(dwells.count - memory) }
    }

    /// Whether prepared item `index` (not the active one) gets the link before the active item's read-ahead: it
    /// has no frame yet, the active item started and plays with ``SwipeShare/margin`` held, and ``SwipeShare``
    /// says its first pictures would come after the expected swipe otherwise (from the step's estimate; before any
    /// was measured, the ABR machine's default, 500 kbit/s). Once decided, it holds until the item's frame shows or
    /// the item is no longer the prepared one.
    mutating func lendsEarly(_ index: Int, _ slot: Slot) -> Bool {
        // A grid's visible items share the link among them: none lends it early.
        guard !configuration.layout.isGrid else { return false }
        if let bytes = facts[index]?.firstPicturesBytes { slots[index]?.firstPicturesBytes = bytes }
        // The item lent to became active, lost its player, or has its frame: the lending is over.
        if let lending = lendingEarly,
            lending == planner.active || slots[lending]?.playerIndex == nil || slots[lending]?.hasFrame != false
        {
            lendingEarly = nil
        }
        guard let active = planner.active, active != index, !slot.hasFrame,
            RemoteLoading.isRemote(entries[index].url), let activeSlot = slots[active],
            let since = activeSlot.activatedAt, activeSlot.firstFrameReported
        else {
            if lendingEarly == index { lendingEarly = nil }
            return false
        }
        if lendingEarly == index { return true }
        guard lendingEarly == nil, activeSlot.stalledSince == nil, activeSlot.playerIndex != nil,
            RemoteLoading.isRemote(entries[active].url), let activeFacts = facts[active],
            let held = activeFacts.heldAhead, !held.complete
        else { return false }
        let situation = SwipeShare.Situation(
            estimate: estimate ?? BandwidthEstimator.defaultEstimate,
            firstPicturesBytes: slots[index]?.firstPicturesBytes ?? configuration.policy.inactiveVideoBytes,
            dwells: dwells, onScreen: now - since, heldAhead: held.seconds,
            mediaBitRate: mediaBitRate(active, activeFacts), lendsAbove: configuration.preparedFetchAbove)
        guard configuration.swipeShare.lendsEarly(situation) else { return false }
        lendingEarly = index
        return true
    }

    /// Item `index`'s media bit rate (bits per second): by its resource's length and duration, else by its entry's
    /// or its chosen rendition's.
    func mediaBitRate(_ index: Int, _ facts: ItemFacts) -> Double? {
        if let total = facts.totalLength, facts.duration.isFinite, facts.duration > 0 {
            return Double(total) * 8 / facts.duration
        }
        if let bytes = entries[index].byteSize, let duration = entries[index].duration, duration > 0 {
            return Double(bytes) * 8 / duration
        }
        return renditionChoices[index].map { Double($0.rendition.bitrate) }
    }
}
