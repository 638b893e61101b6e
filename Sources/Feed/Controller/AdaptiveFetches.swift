import Loading
import Locking

/// Which item each URL an HLS or DASH item fetched belongs to, beyond its entry's own URL: its media playlists,
/// keys, initialization sections and segments, of any variant, prefetched or played. The loading the feed gives
/// such an item's player and prefetch reports each URL before fetching it (``RemoteLoading/fetchObserver``): the
/// first item to read a URL owns it, and from then on the feed's tally counts its bytes
/// (``FeedController/fetchedByURL``), which the summary gives to that item.
///
/// Bounded in bytes like every map of the feed: each URL costs its UTF-8 length and ``entryCost``; past
/// ``byteLimit`` the URLs recorded first are folded into their item's total (their counts leave the tally, the
/// sum stays with the item: one number an item), down to three quarters of the limit. A folded URL read again is
/// recorded again, counting from then on.
final class AdaptiveFetches: Sendable {
    /// What one URL costs beside its UTF-8 bytes (its map entry, its place in the order, its tally's count).
    static let entryCost = 96
    /// The bound of a feed's map: about 8000 segment URLs of a hundred bytes.
    static let defaultByteLimit = 1 << 20

    let byteLimit: Int
    private let state = Locked(State())

    struct State {
        var owners: [String: Int] = [:]
        /// The URLs in the order they were recorded (from `head` on; the ones before it were folded or forgotten).
        var order: [String] = []
        var head = 0
        var cost = 0
        /// The bytes of each item's folded URLs.
        var folded: [Int: Int64] = [:]
    }

    /// What the summary reads: each URL's item, and the bytes of the URLs folded, by item.
    struct Snapshot {
        var owners: [String: Int]
        var folded: [Int: Int64]
    }

    init(byteLimit: Int = AdaptiveFetches.defaultByteLimit) {
        self.byteLimit = max(byteLimit, 1)
    }

    static func cost(of url: String) -> Int { url.utf8.count + entryCost }

    /// Item `index` is about to fetch `url`: the first item to read it owns it, and `tally` counts it from now on.
    /// A URL the tally counted already (an entry's own, counted by URL) stays out.
    func record(_ url: String, item index: Int, tally: FetchTally) {
        guard !state.withLock({ $0.owners[url] != nil }), tally.track([url]).contains(url) else { return }
        let folding = state.withLock { state -> [(url: String, item: Int)] in
            state.owners[url] = index
            state.order.append(url)
            state.cost += Self.cost(of: url)
            return Self.fold(&state, above: byteLimit)
        }
        settle(folding, tally: tally)
    }

    /// Takes the URLs recorded first out of `state` until its cost is within three quarters of `limit` (when it is
    /// over `limit`); returns them with their items.
    private static func fold(_ state: inout State, above limit: Int) -> [(url: String, item: Int)] {
        guard state.cost > limit else { return [] }
        var taken: [(url: String, item: Int)] = []
        while state.cost > limit / 4 * 3, state.head < state.order.count {
            let url = state.order[state.head]
            state.head += 1
            guard let item = state.owners.removeValue(forKey: url) else { continue }
            state.cost -= cost(of: url)
            taken.append((url, item))
        }
        compact(&state)
        return taken
    }

    /// Drops the order's consumed start once it is half of it.
    private static func compact(_ state: inout State) {
        guard state.head > 0, state.head * 2 >= state.order.count else { return }
        state.order.removeFirst(state.head)
        state.head = 0
    }

    /// Moves the counts of `folded` URLs from the tally to their items' totals.
    private func settle(_ folded: [(url: String, item: Int)], tally: FetchTally) {
        guard !folded.isEmpty else { return }
        let counts = tally.remove(folded.map(\.url))
        state.withLock { state in
            for (url, item) in folded { state.folded[item, default: 0] += counts[url] ?? 0 }
        }
    }

    /// Forgets the items before `index` (entries the feed dropped): their URLs leave the tally. Returns the bytes
    /// they had fetched, by item.
    func forget(before index: Int, tally: FetchTally) -> [Int: Int64] {
        let (urls, folded) = state.withLock { state -> ([String: Int], [Int: Int64]) in
            let urls = state.owners.filter { $0.value < index }
            for url in urls.keys {
                state.owners[url] = nil
                state.cost -= Self.cost(of: url)
            }
            state.order.removeFirst(state.head)
            state.head = 0
            state.order.removeAll { urls[$0] != nil }
            let folded = state.folded.filter { $0.key < index }
            state.folded = state.folded.filter { $0.key >= index }
            return (urls, folded)
        }
        var bytes = folded
        for (url, count) in tally.remove(urls.keys) { bytes[urls[url] ?? 0, default: 0] += count }
        return bytes
    }

    var snapshot: Snapshot { state.withLock { Snapshot(owners: $0.owners, folded: $0.folded) } }

    /// The bytes of URLs recorded now (what the bound holds).
    var cost: Int { state.withLock { $0.cost } }
}
