import Loading
import Playback

/// The memory budget (locked): the process's resident memory is sampled as the feed works; over the budget, the
/// feed drops what matters least.
extension FeedController {
    /// At most one sample every this many seconds.
    static let memorySampleInterval = 0.1

    func sampleMemory(_ state: inout FeedState) {
        let now = self.now
        guard now - state.lastMemorySample >= Self.memorySampleInterval || state.summary.peakMemory < 0 else { return }
        state.lastMemorySample = now
        let resident = ProcessMemory.residentBytes()
        guard resident >= 0 else { return }
        state.summary.peakMemory = max(state.summary.peakMemory, resident)
        // Under a manual clock the trace must not depend on the allocator: trims happen only when asked.
        guard clock.manualClock == nil, let budget = configuration.memoryBudget, memoryAtStart >= 0,
            resident - memoryAtStart > budget
        else { return }
        trim(&state)
    }

    /// Drops the cached bytes of every item outside the prefetch window (farthest from the active one first) and
    /// gives the prepared player back.
    func trim(_ state: inout FeedState) {
        guard let active = state.planner.active else { return }
        // Posters on screen were shown already; the rest are made again if needed.
        posters?.trimMemory(toCost: 0)
        let window = Set(state.planner.ranked() + [active])
        let outside = entries.indices.filter { !window.contains($0) }.sorted { abs($0 - active) > abs($1 - active) }
        for index in outside {
            let bytes = heldBytes(index, limit: nil)
            guard bytes > 0 else { continue }
            loading.cache.remove(entries[index].url)
            state.summary.trims += 1
            emit(.trimmed(index: index, bytes: bytes), &state)
        }
        for (index, slot) in state.slots.sorted(by: { $0.key < $1.key }) where slot.player != nil && index != active {
            state.summary.trims += 1
            emit(.trimmed(index: index, bytes: 0), &state)
            perform(state.planner.trimmed(index), &state)
        }
    }
}
