import Loading
import MediaCore
import Streaming

/// A prefetch the feed's driver holds: bytes of a progressive file (`PrefetchTask`), or the start of an HLS or DASH
/// presentation (`StreamPrefetch`: its playlists, the start variant's initialization section and first segments).
protocol FeedPrefetchHandle: Sendable {
    /// How it ended; nil while it runs.
    var result: Result<Void, MediaError>? { get }
    func cancel()
}

extension PrefetchTask: FeedPrefetchHandle {}
extension StreamPrefetch: FeedPrefetchHandle {}
