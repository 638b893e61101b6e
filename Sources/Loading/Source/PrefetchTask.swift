import Dispatch
import Locking

/// Bytes of a URL fetched ahead into a byte cache, for a player that may read them later: a prefetch gives way to
/// playback (it pauses while a player claims the link), and is cancelled when it is no longer wanted (what arrived
/// stays cached).
public final class PrefetchTask: Sendable {
    public let url: String
    /// How far it fetches (nil: the whole resource).
    public let byteLimit: Int64?
    private let cache: ByteCache
    private let completion: FetchCompletion

    init(url: String, byteLimit: Int64?, cache: ByteCache, completion: FetchCompletion) {
        self.url = url
        self.byteLimit = byteLimit
        self.cache = cache
        self.completion = completion
    }

    /// How it ended (a cancellation is a `.cancelled` error); nil while it runs. Set where it ends, before the
    /// completion handler is called: a scheduler stepping a manual clock reads it in the step the bytes came.
    public var result: Result<Void, MediaError>? { completion.result }

    /// Stops it (its completion then reports a cancellation, unless it had ended).
    public func cancel() {
        cache.condition.lock()
        completion.fetch?.cancel()
        cache.condition.unlock()
    }
}

extension RemoteLoading {
    /// Fetches the first `byteLimit` bytes of `url` (all of it when nil) into the cache, from the first byte not held
    /// yet, as a prefetch. `completion` runs once, on a global queue: nil when the bytes are held (at once when they
    /// already were), else why not (a cancellation is a `.cancelled` error).
    @discardableResult
    public func prefetch(
        _ url: String, upTo byteLimit: Int64?, completion: @escaping @Sendable (MediaError?) -> Void = { _ in }
    ) -> PrefetchTask {
        cache.condition.lock()
        let resource = cache.resource(url)
        let limit = byteLimit.map { limit in resource.totalLength.map { min($0, limit) } ?? limit }
        let held = cache.ranges(of: url)
        var start: Int64 = 0
        while let range = held.first(where: { $0.contains(start) }) { start = range.upperBound }
        let done = limit.map { start >= $0 } ?? resource.totalLength.map { start >= $0 } ?? false
        var fetch: Fetch?
        let finish = FetchCompletion(completion)
        if !done {
            let nextHeld = held.first { $0.lowerBound > start }?.lowerBound
            let end = [limit, nextHeld].compactMap { $0 }.min()
            fetch = Fetch.begin(
                cache: cache, resource: resource, transport: transport, start: start, end: end, priority: .prefetch)
            fetch?.onFinish = finish
            finish.fetch = fetch
        }
        cache.condition.unlock()
        if done { finish.complete(nil) }
        return PrefetchTask(url: url, byteLimit: byteLimit, cache: cache, completion: finish)
    }
}
