import Locking

/// Posters kept in memory, bounded by their total cost (width x height x 4 bytes each), least recently used out
/// first; no single poster over a tenth of the limit is kept. Safe from any thread.
public final class PosterCache: Sendable {
    /// What the cache holds and did.
    public struct Statistics: Sendable, Equatable {
        public var count = 0
        public var cost = 0
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        /// Posters too large to keep (over a tenth of the limit).
        public var refused = 0
    }

    private struct Entry {
        var poster: Poster
        var lastUse: UInt64
    }

    private struct State {
        var entries: [PosterKey: Entry] = [:]
        var clock: UInt64 = 0
        var statistics = Statistics()
    }

    /// The bound on the total cost, in bytes.
    public let costLimit: Int
    private let state = Locked(State())

    /// 80 MB: about 20 posters of 1080x1920, or 1100 of 132x132 at twice that scale.
    public static let defaultCostLimit = 80 << 20

    public init(costLimit: Int = PosterCache.defaultCostLimit) {
        self.costLimit = max(costLimit, 0)
    }

    /// The poster of `key`, if kept (it becomes the most recently used); counts a hit or a miss.
    public func poster(for key: PosterKey) -> Poster? {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else {
                state.statistics.misses += 1
                return nil
            }
            entry.lastUse = state.clock
            state.entries[key] = entry
            state.statistics.hits += 1
            return entry.poster
        }
    }

    /// Keeps `poster` (unless it is over a tenth of the limit), evicting the least recently used beyond the limit.
    public func insert(_ poster: Poster) {
        state.withLock { state in
            guard poster.cost <= costLimit / 10 else {
                state.statistics.refused += 1
                return
            }
            state.clock += 1
            if let old = state.entries[poster.key] { state.statistics.cost -= old.poster.cost }
            state.entries[poster.key] = Entry(poster: poster, lastUse: state.clock)
            state.statistics.cost += poster.cost
            Self.evict(&state, toCost: costLimit)
        }
    }

    /// Evicts the least recently used posters until the total cost is at most `cost` (a memory budget's call).
    public func trim(toCost cost: Int) {
        state.withLock { Self.evict(&$0, toCost: max(cost, 0)) }
    }

    public func removeAll() {
        state.withLock { state in
            state.entries = [:]
            state.statistics.cost = 0
        }
    }

    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.count = state.entries.count
            return statistics
        }
    }

    private static func evict(_ state: inout State, toCost limit: Int) {
        guard state.statistics.cost > limit else { return }
        let order = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in order {
            guard state.statistics.cost > limit else { break }
            state.entries[key] = nil
            state.statistics.cost -= entry.poster.cost
            state.statistics.evictions += 1
        }
    }
}
