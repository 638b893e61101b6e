import Foundation
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
        // Over it: first the heap the allocator kept for reuse goes back (freed memory, not the feed's: glibc keeps
        // a heap per decoding thread it saw contend, and resident memory counts them); the feed trims only if it
        // is still over after that, so that what it drops was in use. At most once every second, on a thread of
        // its own (malloc_trim blocks a few milliseconds).
        guard !state.releasingMemory, now - state.lastMemoryRelease >= Self.memoryReleaseInterval else { return }
        state.releasingMemory = true
        state.lastMemoryRelease = now
        let start = memoryAtStart
        Thread.detachNewThread { [weak self] in
            ProcessMemory.releaseFreeMemory()
            let over = ProcessMemory.residentBytes() - start > budget
            guard let self else { return }
            self.state.withLock { state in
                state.releasingMemory = false
                guard over, !state.invalidated else { return }
                self.trim(&state)
            }
        }
    }

    /// At most one release of freed heap (and trim) every this many seconds.
    static let memoryReleaseInterval = 1.0

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
