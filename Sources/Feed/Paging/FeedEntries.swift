/// A feed's entries by their index in the feed: pages are appended at the end, and entries long scrolled past can be
/// dropped from the start (``removeFirst(upTo:)``) without renumbering the rest, so an endless feed holds a bounded
/// list while every event, slot and prefetch keeps naming an item by the index it always had.
public struct FeedEntries: RandomAccessCollection, Sendable, Equatable {
    /// The index of the first entry still held (0 until entries are dropped).
    public private(set) var startIndex: Int
    private var storage: [FeedEntry]

    /// `entries`, numbered from 0.
    public init(_ entries: [FeedEntry] = []) {
        startIndex = 0
        storage = entries
    }

    /// One past the last entry's index: the number of entries the feed ever had.
    public var endIndex: Int { startIndex + storage.count }

    public subscript(position: Int) -> FeedEntry { storage[position - startIndex] }

    /// Adds `page` after the last entry.
    public mutating func append(contentsOf page: [FeedEntry]) {
        storage.append(contentsOf: page)
    }

    /// Drops the entries before `index` (their indices are not reused).
    public mutating func removeFirst(upTo index: Int) {
        let count = Swift.min(Swift.max(index - startIndex, 0), storage.count)
        guard count > 0 else { return }
        storage.removeFirst(count)
        startIndex += count
    }
}

extension FeedEntry {
    /// Every URL the entry may read: its own and its renditions'.
    var urls: [String] { [url] + renditions.map(\.url) }
}
