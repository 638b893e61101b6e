import Loading
import Streaming

extension PlayerItem {
    /// An item for one of `renditions`, progressive copies of the same media at several bit rates (as short-video
    /// services serve each clip): the one the ABR machine's first decision picks from `bandwidthEstimate` (what the
    /// link has shown; its default rate, 500 kbit/s, when nothing was measured) within `limits`
    /// (``ProgressiveRenditionChoice/choose(from:limits:estimate:configuration:)``). The choice is made here, before
    /// the item's first byte, and is the item's for its life: ``url`` is the chosen rendition's, and
    /// ``renditionChoice`` says which and why. The item keeps `limits`' peak bit rate and maximum resolution, and
    /// `bandwidthEstimate`. Nil when `renditions` is empty.
    public convenience init?(
        renditions: [ProgressiveRendition], limits: ABRLimits = .none,
        bandwidthEstimate: SharedBandwidthEstimate = .shared, loading: RemoteLoading = .shared
    ) {
        guard
            let choice = ProgressiveRenditionChoice.choose(
                from: renditions, limits: limits, estimate: bandwidthEstimate.current)
        else { return nil }
        self.init(url: choice.rendition.url, loading: loading)
        state.withLock { state in
            state.renditionChoice = choice
            state.preferredPeakBitRate = max(limits.preferredPeakBitRate, 0)
            state.preferredMaximumResolution = limits.preferredMaximumResolution
            state.bandwidthEstimate = bandwidthEstimate
        }
    }

    /// For an item made from progressive renditions (``init(renditions:limits:bandwidthEstimate:loading:)``): the
    /// rendition it plays and why; nil for other items.
    public var renditionChoice: ProgressiveRenditionChoice? { state.withLock { $0.renditionChoice } }
}
