import Loading

/// The bytes on the wire, for ``FeedSummary/bytesReceived``.
extension FeedController {
    /// The body bytes the transports have delivered into `cache` so far (aborted transfers included), or nil while
    /// the cache does not count them: then ``FeedSummary/bytesReceived`` is -1. The one place to point at the
    /// cache's count (`cache.currentStatistics.bytesReceived`, which Loading's statistics gain).
    static func bytesReceived(of cache: ByteCache) -> Int64? {
        nil
    }
}
