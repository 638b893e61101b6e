/// The memory budget (decisions): the process's resident memory is sampled as the feed works; over the budget, the
/// feed drops what matters least.
extension FeedState {
    /// At most one sample every this many seconds.
    static let memorySampleInterval = 0.1
    /// At most one release of freed heap (and trim) every this many seconds.
    static let memoryReleaseInterval = 1.0

    /// The process holds `resident` bytes now.
    mutating func memorySampled(_ resident: Int) {
        guard resident >= 0 else { return }
        summary.peakMemory = max(summary.peakMemory, resident)
        // Under a manual clock the trace must not depend on the allocator: trims happen only when asked.
        guard !manualClock, let budget = configuration.memoryBudget, memoryAtStart >= 0,
            resident - memoryAtStart > budget
        else { return }
        // Over it: first the heap the allocator kept for reuse goes back (freed memory, not the feed's: glibc keeps
        // a heap per decoding thread it saw contend, and resident memory counts them); the feed trims only if it
        // is still over after that, so that what it drops was in use. At most once every second, on a thread of
        // its own (malloc_trim blocks a few milliseconds).
        guard !releasingMemory, now - lastMemoryRelease >= Self.memoryReleaseInterval else { return }
        releasingMemory = true
        lastMemoryRelease = now
        work.append(.releaseFreeMemory(start: memoryAtStart, budget: budget))
    }

    /// Drops the cached bytes of every item outside the prefetch window (farthest from the active one first) and
    /// gives the prepared player back.
    mutating func trim() {
        guard let active = planner.active else { return }
        // Posters on screen were shown already; the rest are made again if needed.
        if posters { work.append(.trimPosters) }
        let window = Set(planner.ranked() + Array(planner.visible))
        let outside = entries.indices.filter { !window.contains($0) }.sorted { abs($0 - active) > abs($1 - active) }
        if !outside.isEmpty { work.append(.dropCached(outside, time: now)) }
        for (index, slot) in slots.sorted(by: { $0.key < $1.key })
        where slot.playerIndex != nil && !planner.isVisible(index) {
            summary.trims += 1
            emit(.trimmed(index: index, bytes: 0))
            perform(planner.trimmed(index))
        }
    }
}
