/// Where an item's remote bytes come from: a byte cache and a transport (libcurl's HTTP, or a simulated link).
/// Items share ``shared`` unless given another: every player of a URL then reads the same cached bytes, and two
/// players of one URL fetch it once.
public struct RemoteLoading: Sendable {
    public var cache: ByteCache
    public var transport: any Transport
    /// HTTP header fields sent with every request for this loading's resources (an `Authorization`, a cookie, a
    /// user agent), beside the transport's own defaults: what `AVURLAsset`'s HTTP header fields option carries.
    /// Not part of the cache's key: two loadings of one cache with other headers share a URL's bytes. Never logged,
    /// nor put in an error or event.
    public var headers: [String: String]
    /// Called with every URL this loading makes a source or a prefetch of, before it does (on the caller's thread,
    /// perhaps under the caller's own locks: keep it short, and call nothing that reads through a loading): who
    /// reads through it learns each URL it reads before a byte of it arrives. A feed gives one to an HLS or DASH
    /// item, to count the bytes of its playlists and segments as the item's (``ByteCache/tally(_:)``). Nil: none.
    public var fetchObserver: (@Sendable (String) -> Void)?

    public init(
        cache: ByteCache = .shared, transport: any Transport = HTTPLoader.shared, headers: [String: String] = [:]
    ) {
        self.cache = cache
        self.transport = transport
        self.headers = headers
    }

    /// The same cache and transport, with `headers` added to (and replacing fields of the same name in) its own.
    public func adding(headers more: [String: String]) -> RemoteLoading {
        guard !more.isEmpty else { return self }
        var copy = self
        copy.headers = HTTPHeaderFields.merging(headers, more)
        return copy
    }

    /// The same loading, telling `observer` every URL it reads from now on (``fetchObserver``), after the observer
    /// it had.
    public func observingFetches(_ observer: @escaping @Sendable (String) -> Void) -> RemoteLoading {
        var copy = self
        let previous = fetchObserver
        copy.fetchObserver = { url in
            previous?(url)
            observer(url)
        }
        return copy
    }

    /// The shared cache over the shared HTTP loader.
    public static let shared = RemoteLoading()

    /// Whether `url` is one this loads (http and https).
    public static func isRemote(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Opens a connection to `url`'s server (with this loading's headers) unless the transport holds one: the next
    /// fetch from that server then pays no connection setup (``Transport/preconnect(_:headers:)``). True when a
    /// request was sent.
    @discardableResult
    public func preconnect(_ url: String) -> Bool {
        guard Self.isRemote(url) else { return false }
        return transport.preconnect(url, headers: headers)
    }

    /// A source of `url` for one reader.
    public func source(
        _ url: String, priority: TransferPriority = .playback,
        readAhead: Int64 = RemoteByteSource.defaultReadAhead
    ) -> RemoteByteSource {
        fetchObserver?(url)
        return RemoteByteSource(
            url: url, cache: cache, transport: transport, priority: priority, readAhead: readAhead, headers: headers)
    }
}
