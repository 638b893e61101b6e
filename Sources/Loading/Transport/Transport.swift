/// Moves bytes of URLs: libcurl's HTTP (``HTTPLoader``) or a simulated link that follows a manual clock
/// (``SimulatedNetwork``). The byte cache and the sources above it do not know which.
public protocol Transport: AnyObject, Sendable {
    /// Starts fetching `request`; `sink` gets the response head, the body in order, then the end, on the
    /// transport's own thread. The handle pauses, resumes or cancels it.
    func start(_ request: TransferRequest, sink: any TransferSink) -> any TransferHandle
    /// Whether transfers move only when a manual clock advances: a reader waiting for their bytes then waits for
    /// the clock (see `ClockPacedByteSource`).
    var isPacedByClock: Bool { get }
    /// The transport's time in seconds (monotonic; a simulated link's is its clock's), for download rates.
    func currentTime() -> Double
    /// Opens a connection to `url`'s server ahead of the transfers that will need it, unless one is open or
    /// opening (``connectedOrigins``): a small request the server answers on a connection the next transfers reuse.
    /// True when a request was sent. A transport without connections (a simulated link) does nothing.
    @discardableResult
    func preconnect(_ url: String, headers: [String: String]) -> Bool
    /// The servers with a connection open (kept alive and within its idle lifetime) or opening now; nil for a
    /// transport without connections.
    var connectedOrigins: Set<HTTPOrigin>? { get }
    /// Asks for `request`'s response head without its body: what the resource's length is (an HTTP `HEAD`, on the
    /// connections transfers use). `completion` runs once, on the transport's thread: the head, or why not (an HTTP
    /// error status is an `.httpStatus` error). The default asks for the resource's first byte (a range read whose
    /// `Content-Range` tells the length): a transport without `HEAD` (a simulated link) fetches that one byte.
    @discardableResult
    func probe(
        _ request: TransferRequest, completion: @escaping @Sendable (Result<ResponseHead, MediaError>) -> Void
    ) -> any TransferHandle
}

extension Transport {
    @discardableResult
    public func preconnect(_ url: String, headers: [String: String]) -> Bool { false }
    public var connectedOrigins: Set<HTTPOrigin>? { nil }

    @discardableResult
    public func probe(
        _ request: TransferRequest, completion: @escaping @Sendable (Result<ResponseHead, MediaError>) -> Void
    ) -> any TransferHandle {
        var first = request
        (first.start, first.end) = (0, 1)
        return start(first, sink: ProbeSink(url: request.url, completion))
    }
}

/// A request for bytes of a URL.
public struct TransferRequest: Sendable, Equatable {
    public var url: String
    /// The first byte wanted.
    public var start: Int64
    /// One past the last byte wanted; nil for "to the end".
    public var end: Int64?
    /// What the bytes must still be (a resume after a dropped connection): the server answers with the range
    /// only if the resource is unchanged (`If-Range`).
    public var validator: ResourceValidator?
    /// A revalidation (RFC 9111 section 4.3.1): the version held, sent as `If-None-Match` (its ETag) and
    /// `If-Modified-Since` (its Last-Modified); a server whose version is that one answers 304 without a body.
    public var conditional: ResourceValidator?
    public var priority: TransferPriority
    /// HTTP header fields sent with the request, beside the loader's own (``HTTPLoader/Configuration/headers``);
    /// a field named here replaces the loader's of that name. Never logged, nor put in an error or event.
    public var headers: [String: String]

    public init(
        url: String, start: Int64 = 0, end: Int64? = nil, validator: ResourceValidator? = nil,
        priority: TransferPriority = .playback, headers: [String: String] = [:],
        conditional: ResourceValidator? = nil
    ) {
        self.url = url
        self.conditional = conditional
        self.start = start
        self.end = end
        self.validator = validator
        self.priority = priority
        self.headers = headers
    }

    /// Whether it asks for a byte range rather than the whole resource.
    public var isRange: Bool { start > 0 || end != nil }
}

/// Which transfers give way on a shared link: prefetching yields to playback.
public enum TransferPriority: Int, Sendable, Comparable, CaseIterable {
    case prefetch = 0
    case playback = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What identifies one version of a resource: its ETag and Last-Modified headers.
public struct ResourceValidator: Sendable, Hashable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether it says anything (a server may send neither header).
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// Whether `other` may be the same version: the ETags match when both have one, else the dates when both
    /// have one.
    public func matches(_ other: ResourceValidator) -> Bool {
        if let etag, let theirs = other.etag { return etag == theirs }
        if let lastModified, let theirs = other.lastModified { return lastModified == theirs }
        return true
    }
}

/// What the server said about the body it sends.
public struct ResponseHead: Sendable, Equatable {
    /// The HTTP status (200, 206, ...).
    public var status: Int
    /// Where the body starts in the resource.
    public var start: Int64
    /// The resource's whole length, when the server says.
    public var totalLength: Int64?
    public var validator: ResourceValidator
    /// Whether the server serves byte ranges (`Accept-Ranges: bytes`, or a 206 answer).
    public var acceptsRanges: Bool
    /// What the response says of its reuse (HTTP's caching fields); nil from a transport without them (a
    /// simulated link): the bytes are then reused without asking, as long as they are held.
    public var caching: CacheDirectives?

    public init(
        status: Int, start: Int64, totalLength: Int64?, validator: ResourceValidator, acceptsRanges: Bool,
        caching: CacheDirectives? = nil
    ) {
        self.status = status
        self.start = start
        self.totalLength = totalLength
        self.validator = validator
        self.acceptsRanges = acceptsRanges
        self.caching = caching
    }
}

/// Receives one transfer's response, on the transport's thread. Never app code.
public protocol TransferSink: AnyObject, Sendable {
    /// The response head, once, before any body byte. Returning false cancels the transfer (it then finishes
    /// with the error the sink recorded).
    func transferReceived(head: ResponseHead) -> Bool
    /// The next body bytes, in order.
    func transferReceived(_ bytes: UnsafeRawBufferPointer)
    /// The transfer ended: nil when every byte asked for arrived.
    func transferFinished(_ error: MediaError?)
    /// A transport that moves many transfers' bytes at one instant (a simulated link at a clock advance) brackets
    /// them with these: readers of what the sinks fill should see the whole instant's bytes at once, not part of
    /// them (the result then does not depend on how fast their threads wake). Calls nest; the default does nothing.
    func deliveryBegan()
    func deliveryEnded()
}

extension TransferSink {
    public func deliveryBegan() {}
    public func deliveryEnded() {}
}

/// Controls one transfer. Every method may be called from any thread, and after the transfer ended.
public protocol TransferHandle: AnyObject, Sendable {
    /// Stops receiving (the connection stays open) or starts again.
    func setPaused(_ paused: Bool)
    /// Caps the transfer's rate in bytes per second (nil: no cap).
    func setMaximumRate(_ bytesPerSecond: Int64?)
    /// Ends the transfer; its sink hears nothing more.
    func cancel()
}
