/// Where an item's remote bytes come from: a byte cache and a transport (libcurl's HTTP, or a simulated link).
/// Items share ``shared`` unless given another: every player of a URL then reads the same cached bytes, and two
/// players of one URL fetch it once.
public struct RemoteLoading: Sendable {
    public var cache: ByteCache
    public var transport: any Transport

    public init(cache: ByteCache = .shared, transport: any Transport = HTTPLoader.shared) {
        self.cache = cache
        self.transport = transport
    }

    /// The shared cache over the shared HTTP loader.
    public static let shared = RemoteLoading()

    /// Whether `url` is one this loads (http and https).
    public static func isRemote(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A source of `url` for one reader.
    public func source(
        _ url: String, priority: TransferPriority = .playback,
        readAhead: Int64 = RemoteByteSource.defaultReadAhead
    ) -> RemoteByteSource {
        RemoteByteSource(url: url, cache: cache, transport: transport, priority: priority, readAhead: readAhead)
    }
}
