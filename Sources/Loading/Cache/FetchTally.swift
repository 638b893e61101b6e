import Locking

/// Bytes fetched from the network for a set of URLs, counted by a ``ByteCache`` from the moment the tally was made
/// (``ByteCache/tally(_:)``) for as long as the tally lives, whatever the cache keeps or forgets of those URLs
/// meanwhile: a feed's account of what it fetched for each of its entries. It holds one count per URL it was made
/// for, nothing else.
public final class FetchTally: Sendable {
    private let counts: Locked<[String: Int64]>

    init(urls: some Sequence<String>) {
        var counts: [String: Int64] = [:]
        for url in urls { counts[url] = 0 }
        self.counts = Locked(counts)
    }

    /// Bytes that arrived for each URL of the tally since it was made (0 for one not fetched).
    public var bytesFetched: [String: Int64] { counts.withLock { $0 } }

    /// Counts `bytes` that arrived for `url`, if the tally is for it.
    func add(_ bytes: Int, for url: String) {
        counts.withLock { counts in
            if let count = counts[url] { counts[url] = count + Int64(bytes) }
        }
    }
}

/// A tally the cache counts into without keeping it alive.
struct WeakTally {
    weak var tally: FetchTally?
}
