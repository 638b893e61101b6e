import Locking

/// Bytes fetched from the network for a set of URLs, counted by a ``ByteCache`` from the moment the tally was made
/// (``ByteCache/tally(_:)``) for as long as the tally lives, whatever the cache keeps or forgets of those URLs
/// meanwhile: a feed's account of what it fetched for each of its entries. It holds one count per URL it was made
/// for, nothing else.
public final class FetchTally: Sendable {
    private let counts: Locked<[String: Counts]>

    private struct Counts {
        var fetched: Int64 = 0
        var received: Int64 = 0
    }

    init(urls: some Sequence<String>) {
        var counts: [String: Counts] = [:]
        for url in urls { counts[url] = Counts() }
        self.counts = Locked(counts)
    }

    /// Bytes that arrived and were kept for each URL of the tally since it was made (0 for one not fetched).
    public var bytesFetched: [String: Int64] { counts.withLock { $0.mapValues(\.fetched) } }

    /// Body bytes the transports delivered for each URL since the tally was made, kept or not
    /// (``ByteCache/Statistics/bytesReceived``): at least ``bytesFetched``.
    public var bytesReceived: [String: Int64] { counts.withLock { $0.mapValues(\.received) } }

    /// Counts `urls` too from now on (an endless feed's new page); a URL already counted keeps its count. Returns
    /// those it did not count before.
    @discardableResult
    public func track(_ urls: some Sequence<String>) -> Set<String> {
        counts.withLock { counts in
            var added = Set<String>()
            for url in urls where counts[url] == nil {
                counts[url] = Counts()
                added.insert(url)
            }
            return added
        }
    }

    /// Stops counting `urls` (entries a feed dropped); returns the bytes each had fetched.
    @discardableResult
    public func remove(_ urls: some Sequence<String>) -> [String: Int64] {
        counts.withLock { counts in
            var removed: [String: Int64] = [:]
            for url in urls { if let count = counts.removeValue(forKey: url) { removed[url] = count.fetched } }
            return removed
        }
    }

    /// Counts `bytes` that arrived and were kept for `url`, if the tally is for it.
    func add(_ bytes: Int, for url: String) {
        counts.withLock { counts in counts[url]?.fetched += Int64(bytes) }
    }

    /// Counts `received` body bytes delivered for `url`, if the tally is for it.
    func add(received: Int, for url: String) {
        counts.withLock { counts in counts[url]?.received += Int64(received) }
    }
}

/// A tally the cache counts into without keeping it alive.
struct WeakTally {
    weak var tally: FetchTally?
}
