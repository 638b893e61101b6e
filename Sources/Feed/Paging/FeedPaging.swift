import Foundation
import MediaCore
import Streaming

/// Where an endless feed's next entries come from: a server's paged list (`{"entries": [...], "next": URL}`), a
/// database, a recommender. The feed asks for the next page when the user is within ``FeedPaging/distance(for:)``
/// items of the end, one page at a time.
public protocol FeedPageSource: Sendable {
    /// The entries that follow the `count` the feed has (an empty page: there are no more).
    ///
    /// Called on a thread of the feed's own, so it may block (read over the network through `Loading`). Under a
    /// manual clock the feed waits for the page at its next clock advance: a source must then not wait for that
    /// clock.
    /// - Throws: a `MediaError` naming what could not be read; the feed reports it (`feed.pageFailed`), goes on with
    ///   what it has, and asks again after ``FeedPaging/retryDelay`` (doubled with each failure in a row).
    func nextPage(after count: Int) throws(MediaError) -> [FeedEntry]
}

/// When an endless feed asks its ``FeedPageSource`` for more, and what it keeps of what was scrolled past.
public struct FeedPaging: Sendable, Equatable {
    /// On an unconstrained link: ask for the next page when the active item is this many items or fewer from the
    /// last entry.
    public var distance = 5
    /// On a cellular or constrained link, where a page's request takes longer to come back.
    public var expensiveNetworkDistance = 8
    /// Entries more than this many items behind the active one are dropped from the feed's list (their indices are
    /// not reused: ``FeedEntries``): an endless feed holds a bounded list. At least the prefetch window behind.
    public var entriesKeptBehind = 100
    /// After a page failed, seconds before the feed asks again; each failure in a row doubles it, up to
    /// ``maximumRetryDelay`` (a dead `next` URL costs a request now and then, not one at every swipe). A page that
    /// comes resets it.
    public var retryDelay = 1.0
    public var maximumRetryDelay = 30.0

    public init() {}

    /// The wait after `failures` failures in a row (at least 1).
    public func retryDelay(afterFailures failures: Int) -> Double {
        let doublings = Double(min(max(failures - 1, 0), 30))
        return min(max(retryDelay, 0) * pow(2, doublings), max(maximumRetryDelay, 0))
    }

    /// The distance on `profile`.
    public func distance(for profile: NetworkProfile) -> Int {
        profile == .unconstrained ? distance : expensiveNetworkDistance
    }
}
