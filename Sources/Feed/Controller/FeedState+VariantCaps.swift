import Streaming

/// The peak bit rate of an HLS or DASH item's variants (decisions): a feed's items share the link, so an item may
/// not take what a lone player would. Decided once per item, before the first work of a step that reads its bytes
/// (its prefetch, its player's load, its poster unless made from the entry's own picture), and kept for the feed's life: the prefetch fetches the variant the
/// player will start on, and the player never climbs past what the feed can carry at the pace it is scrolled.
extension FeedState {
    /// The peak bit rate for an adaptive item now, bits per second: the feed's limits
    /// (``FeedConfiguration/preferredPeakBitRate``, and ``FeedConfiguration/expensiveNetworkPeakBitRate`` on an
    /// expensive link), and the scroll's share of the estimate: each item fetches its media up to where it is left
    /// and ``FeedConfiguration/activeForwardBuffer`` beyond, in the expected dwell (the median of the latest, as
    /// ``SwipeShare`` reads them), so its rate may be at most the estimate times dwell / (dwell + forward buffer).
    /// A swipe every 2 s with 4 s read ahead leaves a third of the estimate; a 14 s dwell 0.78 (the ABR machine's
    /// own 0.7 of the estimate is then the tighter). Before any estimate, the ABR machine's default (500 kbit/s).
    var adaptivePeakBitRate: Double {
        let dwell = configuration.swipeShare.expectedDwell(dwells)
        let forward = max(configuration.activeForwardBuffer, 0)
        let share = dwell > 0 ? dwell / (dwell + forward) : 1
        let scroll = (estimate ?? BandwidthEstimator.defaultEstimate) * share
        guard let limit = renditionLimits.effectivePeakBitRate, limit > 0 else { return scroll }
        return min(limit, scroll)
    }

    /// Puts each adaptive item's peak bit rate before the first work of the step that reads its bytes, for the
    /// items without one yet (``FeedWork/capVariants(index:peakBitRate:)``).
    mutating func capVariants() {
        guard work.contains(where: { videoBytesRead(by: $0).map(needsVariantCap) ?? false }) else { return }
        var ordered: [FeedWork] = []
        ordered.reserveCapacity(work.count + 1)
        for item in work {
            if let index = videoBytesRead(by: item), needsVariantCap(index) {
                let peak = adaptivePeakBitRate
                variantCaps[index] = peak
                ordered.append(.capVariants(index: index, peakBitRate: peak))
            }
            ordered.append(item)
        }
        work = ordered
    }

    private func needsVariantCap(_ index: Int) -> Bool {
        entries.indices.contains(index) && variantCaps[index] == nil && ManifestURI.isManifest(url(of: index))
    }
}
