import Foundation
import Loading
import MediaCore
import Streaming

/// A page request under way (``FeedDriver/page``).
struct PageRequest: Sendable {
    /// The number of entries the feed had when it asked.
    let count: Int
    /// The answer, once it came.
    var result: Result<[FeedEntry], MediaError>?
    /// Under a manual clock: the advance waiting for the answer.
    var waiter: CheckedContinuation<Void, Never>?
}

/// Pages (the driver): entries appended by the app or by the page source, asked on a thread of the feed's own.
extension FeedController {
    /// Adds `page` after the last entry: nothing in flight changes (the pool, the prepared player, the prefetches
    /// and the cache stay), and the plan takes the new entries in as the user reaches them (`feed.page`).
    public func append(_ page: [FeedEntry]) {
        guard !page.isEmpty else { return }
        track(page)
        handle(.append(page))
    }

    /// Counts the bytes of `page`'s URLs from now on, and samples the throughput of its progressive ones.
    private func track(_ page: [FeedEntry]) {
        let urls = page.flatMap(\.urls)
        fetchedByURL.track(urls)
        progressiveURLs.withLock { $0.formUnion(urls.filter { !ManifestURI.isManifest($0) }) }
    }

    /// Asks the page source, on a thread of its own (the source may block on the network).
    func requestPage(after count: Int) {
        guard let pageSource else { return }
        let started = driver.withLock { driver -> Bool in
            guard !driver.invalidated, driver.page == nil else { return false }
            driver.page = PageRequest(count: count)
            return true
        }
        guard started else { return }
        Thread.detachNewThread { [weak self] in
            let result: Result<[FeedEntry], MediaError>
            do throws(MediaError) {
                result = .success(try pageSource.nextPage(after: count))
            } catch {
                result = .failure(error)
            }
            self?.pageArrived(result)
        }
    }

    /// The page source answered: on the host clock the answer is handled at once; under a manual clock it waits for
    /// the next advance (or wakes the advance waiting for it), so the trace does not depend on the thread's timing.
    private func pageArrived(_ result: Result<[FeedEntry], MediaError>) {
        if case .success(let page) = result { track(page) }
        let (count, waiter) = driver.withLock { driver -> (Int?, CheckedContinuation<Void, Never>?) in
            guard var request = driver.page else { return (nil, nil) }
            request.result = result
            if clock.manualClock == nil {
                driver.page = nil
                return (request.count, nil)
            }
            let waiter = request.waiter
            request.waiter = nil
            driver.page = request
            return (nil, waiter)
        }
        if let count { handle(.pageLoaded(after: count, result)) }
        waiter?.resume()
    }

    /// Under a manual clock, at an advance: waits for the page asked for, then hands it to the state.
    func takePage() async {
        guard clock.manualClock != nil, pageSource != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = driver.withLock { driver -> Bool in
                guard let request = driver.page, request.result == nil else { return true }
                driver.page?.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        let answered = driver.withLock { driver -> PageRequest? in
            guard let request = driver.page, request.result != nil else { return nil }
            driver.page = nil
            return request
        }
        if let answered, let result = answered.result { handle(.pageLoaded(after: answered.count, result)) }
    }

    /// The entries before `before` left the list: their URLs leave the tally (what was fetched for the ones never
    /// watched stays in the summary's figure) and the throughput's set.
    func forgetEntries(before: Int, urls: [String: Bool], watched: Set<Int>) {
        let fetched = fetchedByURL.remove(urls.keys)
        var unwatched = fetched.filter { urls[$0.key] == false }.values.reduce(0, +)
        // An HLS or DASH item's playlists and segments.
        for (item, bytes) in adaptiveFetches.forget(before: before, tally: fetchedByURL) where !watched.contains(item) {
            unwatched += bytes
        }
        driver.withLock { driver in
            driver.unwatchedBytesDropped += unwatched
            driver.urls = driver.urls.filter { $0.key >= before }
        }
        progressiveURLs.withLock { $0.subtract(urls.keys) }
    }
}

extension FeedController {
    /// Whether the feed waits for a page from its source now.
    public var isWaitingForPage: Bool { state.withLock { $0.paging.requestedAt != nil } }
}
