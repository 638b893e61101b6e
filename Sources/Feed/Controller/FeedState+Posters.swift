import Loading

/// Posters (decisions): every item in the prefetch window read over a link, or whose entry names a poster picture
/// (`FeedEntry.poster`, a server's thumbnail), gets one, the item on screen first, and so do the next
/// `pictureLookahead` items naming a picture, beyond the window; items leaving the window stop
/// waiting for theirs (the pipeline stops the work when nobody else waits). A local file without one gets none: its
/// player shows its first frame as soon as a poster of it could be made, and making one took the CPU from the
/// players (a feed of Media/'s clips, 0.5 s dwells, lost first frames to it).
extension FeedState {
    mutating func updatePosters(visible: Int) {
        guard posters else { return }
        if posterVisible != visible {
            posterVisible = visible
            posterSlots[visible, default: PosterSlot()].visibleAt = now
            posterSlots[visible]?.reported = false
        }
        // (In a grid, every item on screen, the first one first.)
        let onScreen = [visible] + planner.visible.filter { $0 != visible }
        var wanted = (onScreen + planner.ranked()).filter {
            entries[$0].poster != nil || RemoteLoading.isRemote(entries[$0].url)
        }
        let first = visible + 1
        let ahead = first..<max(first, min(first + max(configuration.pictureLookahead, 0), entries.endIndex))
        wanted += ahead.filter { entries[$0].poster != nil && !wanted.contains($0) }
        for (index, slot) in posterSlots.sorted(by: { $0.key < $1.key }) where !wanted.contains(index) {
            if slot.requested { work.append(.cancelPoster(index: index)) }
            posterSlots[index] = nil
        }
        for index in wanted where posterSlots[index]?.requested != true && posterSlots[index]?.ready == nil {
            work.append(.requestPoster(index: index, visible: index == visible))
            posterSlots[index, default: PosterSlot()].requested = true
        }
        if let slot = posterSlots[visible], slot.ready != nil { reportPoster(visible) }
    }

    mutating func posterReady(_ index: Int, fromCache: Bool) {
        guard posterSlots[index] != nil else { return }
        posterSlots[index]?.requested = false
        posterSlots[index]?.ready = now
        summary.postersReady += 1
        posterShown(index)
        if posterSlots[index]?.visibleAt != nil { reportPoster(index, fromCache: fromCache) }
    }

    /// `feed.poster` for an item on screen whose poster is ready: the latency from coming on screen.
    private mutating func reportPoster(_ index: Int, fromCache: Bool = true) {
        guard let slot = posterSlots[index], !slot.reported, let ready = slot.ready, let visible = slot.visibleAt
        else { return }
        let latency = max(ready - visible, 0)
        posterSlots[index]?.reported = true
        if posterLatencies.count < Self.latencyLimit { posterLatencies.append(latency) }
        emit(.poster(index: index, latency: latency, fromCache: fromCache))
    }
}
