import Loading
import MediaCore

/// Pages (decisions): a page asked for when the active item nears the end, one at a time; a page that came is
/// appended (nothing in flight changes); a page that failed is reported and asked for again after a delay that
/// doubles with each failure in a row (``FeedPaging/retryDelay``); entries long scrolled past are dropped from the
/// list.
extension FeedState {
    /// Where the feed's page requests stand.
    struct PagingState {
        /// A request is under way (made when the feed had this many entries).
        var requestedAt: Int?
        /// The source said there are no more.
        var exhausted = false
        /// Failures in a row, and when the feed may ask again after the last one.
        var failures = 0
        var retryAt: Double?
    }

    /// Adds `page` after the last entry; the plan takes it in.
    mutating func append(_ page: [FeedEntry]) {
        guard !page.isEmpty else { return }
        let first = entries.endIndex
        perform(planner.append(page))
        summary.entriesAppended += page.count
        emit(.page(index: first, count: page.count))
    }

    mutating func pageLoaded(after count: Int, _ result: Result<[FeedEntry], MediaError>) {
        guard paging.requestedAt == count else { return }
        paging.requestedAt = nil
        switch result {
        case .success(let page) where page.isEmpty:
            (paging.failures, paging.retryAt) = (0, nil)
            paging.exhausted = true
            emit(.pagesEnded(index: entries.endIndex))
        case .success(let page):
            (paging.failures, paging.retryAt) = (0, nil)
            summary.pagesLoaded += 1
            append(page)
        case .failure(let error):
            summary.pageFailures += 1
            paging.failures += 1
            paging.retryAt = now + configuration.paging.retryDelay(afterFailures: paging.failures)
            emit(.pageFailed(index: entries.endIndex, error: error.description))
        }
    }

    /// Asks for the next page when the active item is near the end and no request is under way; drops the entries
    /// far behind it.
    mutating func updatePaging() {
        guard let active = planner.active else { return }
        dropEntriesFarBehind(active)
        guard pages, paging.requestedAt == nil, !paging.exhausted, now >= paging.retryAt ?? now else { return }
        let left = entries.endIndex - planner.visible.upperBound
        guard left <= configuration.paging.distance(for: planner.profile) else { return }
        paging.requestedAt = entries.endIndex
        work.append(.requestPage(after: entries.endIndex))
        emit(.pageRequested(index: entries.endIndex))
    }

    /// Entries more than ``FeedPaging/entriesKeptBehind`` behind the active one (and the prefetch window), holding
    /// nothing, leave the list.
    private mutating func dropEntriesFarBehind(_ active: Int) {
        let keep = max(configuration.paging.entriesKeptBehind, configuration.policy.windowBehind + 1)
        let before = active - keep
        guard before > entries.startIndex else { return }
        // An item still holding something (a player, a prefetch, its time on screen, a poster asked for) keeps
        // the entries where they are; slots left empty go with their entries.
        func holds(_ slot: Slot) -> Bool {
            slot.playerIndex != nil || slot.prefetch != nil || slot.activatedAt != nil || slot.waitsForPlayer
        }
        let held =
            slots.contains { $0.key < before && holds($0.value) }
            || posterSlots.contains { $0.key < before && $0.value.requested }
        guard !held else { return }
        slots = slots.filter { $0.key >= before }
        posterSlots = posterSlots.filter { $0.key >= before }
        // Each URL an entry may read, and whether it was watched (the one its item played).
        var forgotten: [String: Bool] = [:]
        var watched = Set<Int>()
        for index in entries.startIndex..<before {
            let played = playedBytes.removeValue(forKey: index)
            playedBytesDropped += played ?? 0
            for url in entries[index].urls { forgotten[url] = forgotten[url] ?? false }
            if played != nil {
                forgotten[url(of: index)] = true
                watched.insert(index)
            }
        }
        planner.dropEntries(before: before)
        renditionChoices = renditionChoices.filter { $0.key >= before }
        variantCaps = variantCaps.filter { $0.key >= before }
        failed = failed.filter { $0 >= before }
        cappedItems = cappedItems.filter { $0.key >= before }
        // A URL an entry still held reads is still counted.
        let kept = Set(entries.flatMap(\.urls))
        work.append(
            .forgetEntries(before: before, urls: forgotten.filter { !kept.contains($0.key) }, watched: watched))
    }
}
