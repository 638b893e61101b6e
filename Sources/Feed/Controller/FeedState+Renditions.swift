import Streaming

/// Progressive renditions (decisions): an entry listing several copies of its video at several bit rates plays
/// one, chosen by the ABR machine's first decision from the step's bandwidth estimate and the feed's limits, once,
/// before any of its bytes is asked for; everything that reads the item's bytes afterwards reads that file.
extension FeedState {
    /// The URL item `index` reads: its chosen rendition's, else its entry's.
    func url(of index: Int) -> String {
        renditionChoices[index]?.rendition.url ?? entries[index].url
    }

    /// What a rendition choice keeps to now: the feed's peak bit rate and picture size, and the expensive-network
    /// cap (``FeedConfiguration/expensiveNetworkPeakBitRate``) on a cellular or constrained link.
    var renditionLimits: ABRLimits {
        ABRLimits(
            preferredPeakBitRate: configuration.preferredPeakBitRate,
            preferredPeakBitRateForExpensiveNetworks: configuration.expensiveNetworkPeakBitRate,
            isNetworkExpensive: planner.profile != .unconstrained,
            preferredMaximumResolution: configuration.preferredMaximumResolution)
    }

    /// The limits a progressive rendition is chosen within: ``renditionLimits`` with the scroll's share of the
    /// estimate as the peak (``adaptivePeakBitRate``, the rule an HLS or DASH item's variants keep to): an item
    /// fetches what it plays and ``FeedConfiguration/activeForwardBuffer`` beyond in the expected dwell, so a
    /// rendition chosen from the whole estimate, as a lone player may, takes the link from the items ahead (at
    /// 2 Mbit/s with 1.5 s dwells the 1.5 Mbit/s copies stalled the items on screen and kept the next ones' first
    /// pictures behind them).
    var progressiveRenditionLimits: ABRLimits {
        var limits = renditionLimits
        limits.preferredPeakBitRate = adaptivePeakBitRate
        return limits
    }

    /// Puts each item's rendition choice before the first work of the step that reads its bytes (its player's
    /// load, a prefetch, its poster), for the items with renditions not chosen yet: the driver switches the item
    /// to the chosen URL, then the event says which and why. A choice stays the item's for the feed's life (its
    /// cached bytes are that file's).
    mutating func chooseRenditions() {
        guard work.contains(where: { videoBytesRead(by: $0).map(needsRendition) ?? false }) else { return }
        var ordered: [FeedWork] = []
        ordered.reserveCapacity(work.count + 2)
        for item in work {
            if let index = videoBytesRead(by: item), needsRendition(index),
                let choice = ProgressiveRenditionChoice.choose(
                    from: entries[index].renditions, limits: progressiveRenditionLimits, estimate: estimate)
            {
                renditionChoices[index] = choice
                ordered.append(.chooseRendition(index: index, url: choice.rendition.url))
                ordered.append(.emit(.rendition(index: index, choice: choice), time: now))
            }
            ordered.append(item)
        }
        work = ordered
    }

    /// The item whose video bytes `work` reads: a poster made from the entry's own picture reads none of them.
    func videoBytesRead(by work: FeedWork) -> Int? {
        guard let index = work.readsBytesOf else { return nil }
        if case .requestPoster = work, entries.indices.contains(index), entries[index].poster != nil { return nil }
        return index
    }

    private func needsRendition(_ index: Int) -> Bool {
        entries.indices.contains(index) && !entries[index].renditions.isEmpty && renditionChoices[index] == nil
    }
}
