import Loading
import Streaming

/// The bandwidth estimate from the feed's own bytes: each measurement of a progressive item's transfers (its
/// player's reads, its prefetches) is a sample of a ``BandwidthEstimator`` (downloads under its minimum size are
/// ignored), whose estimate goes to ``FeedConfiguration/bandwidthEstimate``; the next item's rendition (and an HLS
/// or DASH item's first variant) is chosen from it, so a feed starts its next item at the rate its link has shown.
extension FeedController {
    /// Registers the feed's transfer observer on its cache (once, when the feed is made).
    func observeTransfers() {
        let observer = loading.cache.observeTransfers { [weak self] measurement in
            self?.transferMeasured(measurement)
        }
        transferObserver.withLock { $0 = observer }
    }

    /// One measurement of the cache's transfers: a sample when it is one of the feed's progressive URLs.
    func transferMeasured(_ measurement: TransferMeasurement) {
        guard progressiveURLs.withLock({ $0.contains(measurement.url) }) else { return }
        let estimate = throughput.withLock { throughput -> Double? in
            guard throughput.sample(bytes: Int(clamping: measurement.bytes), seconds: measurement.seconds) else {
                return nil
            }
            return throughput.estimate
        }
        if let estimate { configuration.bandwidthEstimate.record(estimate) }
    }
}
