/// Bytes of a URL fetched ahead into a byte cache, for a player that may read them later: a prefetch gives way to
/// playback (it pauses while a player claims the link), and is cancelled when it is no longer wanted (what arrived
/// stays cached).
public final class PrefetchTask: Sendable {
    public let url: String
    /// How far it fetches (nil: the whole resource).
    public let byteLimit: Int64?
    private let cache: ByteCache
    private let fetch: FetchID?
    private let completion: FetchCompletion

    init(url: String, byteLimit: Int64?, cache: ByteCache, fetch: FetchID?, completion: FetchCompletion) {
        self.url = url
        self.byteLimit = byteLimit
        self.cache = cache
        self.fetch = fetch
        self.completion = completion
    }

    /// How it ended (a cancellation is a `.cancelled` error); nil while it runs. Set where it ends, before the
    /// completion handler is called: a scheduler stepping a manual clock reads it in the step the bytes came.
    public var result: Result<Void, MediaError>? { completion.result }

    /// Stops it (its completion then reports a cancellation, unless it had ended).
    public func cancel() {
        guard let fetch else { return }
        cache.withState { $0.step(fetch, .cancel) }
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
        fetchObserver?(url)
        let finish = FetchCompletion(completion)
        let transport = self.transport
        let headers = self.headers
        let fetch: FetchID? = cache.withState { state in
            let total = state.resource(url).totalLength
            let limit = byteLimit.map { limit in total.map { min($0, limit) } ?? limit }
            let held = state.ranges(of: url)
            var start: Int64 = 0
            while let range = held.first(where: { $0.contains(start) }) { start = range.upperBound }
            let done = limit.map { start >= $0 } ?? total.map { start >= $0 } ?? false
            guard !done else { return nil }
            let nextHeld = held.first { $0.lowerBound > start }?.lowerBound
            let end = [limit, nextHeld].compactMap { $0 }.min()
            return state.beginFetch(
                url, start: start, end: end, priority: .prefetch, transport: transport, headers: headers,
                completion: finish)
        }
        if fetch == nil { finish.complete(nil) }
        return PrefetchTask(url: url, byteLimit: byteLimit, cache: cache, fetch: fetch, completion: finish)
    }
}
