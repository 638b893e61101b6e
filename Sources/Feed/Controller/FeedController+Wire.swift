import Loading

/// The bytes on the wire, for ``FeedSummary/bytesReceived``.
extension FeedController {
    /// The body bytes the transports have delivered into `cache` so far, kept or not (aborted transfers'
    /// included): ``ByteCache/Statistics/bytesReceived``.
    static func bytesReceived(of cache: ByteCache) -> Int64? {
        cache.currentStatistics.bytesReceived
    }
}
