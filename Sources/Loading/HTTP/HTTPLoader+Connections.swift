import CCurl
import Foundation

/// The connections the loader keeps: which servers it has one open to (or opening), how long each may idle, and
/// opening one ahead of need. libcurl's multi handle holds the connections themselves; this is what the loader
/// knows of them, kept under its lock.
extension HTTPLoader {
    /// What the loader did with connections since it was made.
    public struct Statistics: Sendable, Equatable {
        /// Transfers started (preconnects included).
        public var transfers = 0
        /// Connections libcurl opened for them (a transfer that reused a kept connection opened none), counted when
        /// a response's head came or the transfer ended.
        public var connectionsOpened = 0
        /// Preconnects sent (``HTTPLoader/preconnect(_:headers:)`` calls that found no connection).
        public var preconnects = 0
        /// `HEAD` requests sent for a response head (``HTTPLoader/probe(_:completion:)``).
        public var probes = 0
    }

    /// A server's connections as far as the loader knows (guarded by `lock`).
    struct OriginUse {
        /// Transfers to it queued or running.
        var transfers = 0
        /// When the last of them ended (``HTTPLoader/currentTime()``).
        var lastUsed: Double = 0
        /// Seconds the server said it keeps an idle connection (`Keep-Alive: timeout=N`), when it said.
        var serverTimeout: Double?
    }

    /// What the loader did with connections so far.
    public var statistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }

    /// The servers with a connection open (used within its idle lifetime, while the loader's thread runs) or
    /// opening (a transfer queued or running). libcurl may still have closed one (more than
    /// ``Configuration/maximumIdleConnections`` idle, or the server closed it): a transfer then opens another.
    public var connectedOrigins: Set<HTTPOrigin>? {
        let now = currentTime()
        lock.lock()
        defer { lock.unlock() }
        guard multi != nil else { return [] }
        return Set(origins.filter { isLive($0.value, now: now) }.keys)
    }

    /// Opens a connection to `url`'s server, unless one is open or opening: a `HEAD` of `url` (with `headers`
    /// beside the loader's), whose connection libcurl keeps for the next transfer to that server; whatever the
    /// server answers (a 404, a 401) leaves the connection open. True when it was sent; false for a URL that is
    /// not http(s) or a server already connected.
    @discardableResult
    public func preconnect(_ url: String, headers: [String: String] = [:]) -> Bool {
        guard let origin = HTTPOrigin(url: url) else { return false }
        let transfer = CurlTransfer(
            request: TransferRequest(url: url, priority: .prefetch, headers: headers), sink: PreconnectSink(),
            loader: self, method: .preconnect)
        let now = currentTime()
        lock.lock()
        defer { lock.unlock() }
        if multi != nil, let use = origins[origin], isLive(use, now: now) { return false }
        counts.preconnects += 1
        submitStartLocked(transfer)
        return true
    }

    /// Asks `request.url`'s server for its response head with a `HEAD` (with the request's headers beside the
    /// loader's), on the connections transfers use: a resource's length before any of its bytes.
    @discardableResult
    public func probe(
        _ request: TransferRequest, completion: @escaping @Sendable (Result<ResponseHead, MediaError>) -> Void
    ) -> any TransferHandle {
        var head = request
        (head.start, head.end) = (0, nil)
        let transfer = CurlTransfer(
            request: head, sink: ProbeSink(url: request.url, completion), loader: self, method: .head)
        lock.lock()
        defer { lock.unlock() }
        counts.probes += 1
        submitStartLocked(transfer)
        return transfer
    }

    // MARK: Bookkeeping

    /// A transfer was queued (any thread, under `lock`): its server counts as connected until it ends.
    func transferBeganLocked(_ transfer: CurlTransfer) {
        counts.transfers += 1
        guard let origin = transfer.origin else { return }
        origins[origin, default: OriginUse()].transfers += 1
    }

    /// A transfer ended, was cancelled or could not start (the loader's thread, once per transfer, before its easy
    /// handle is freed): counts the connections it opened, and what its server said of keeping one.
    func transferEnded(_ transfer: CurlTransfer) {
        let opened = transfer.newConnections()
        let now = currentTime()
        lock.lock()
        defer { lock.unlock() }
        counts.connectionsOpened += opened
        guard let origin = transfer.origin, var use = origins[origin] else { return }
        use.transfers = max(use.transfers - 1, 0)
        use.lastUsed = now
        if let timeout = transfer.serverKeepAlive { use.serverTimeout = timeout }
        origins[origin] = use
        // Forget the servers whose connections can no longer be kept (the record stays bounded).
        origins = origins.filter { isLive($0.value, now: now) }
    }

    /// Counts connections libcurl opened (the loader's thread).
    func countConnections(_ opened: Int) {
        guard opened > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        counts.connectionsOpened += opened
    }

    /// Seconds a connection to `origin` may idle and still be reused (libcurl's `CURLOPT_MAXAGE_CONN`).
    func keepAliveLimit(of origin: HTTPOrigin?) -> Double {
        lock.lock()
        defer { lock.unlock() }
        return keepAliveLimitLocked(origin.flatMap { origins[$0] })
    }

    /// How long the loader's thread waits for a transfer before it ends (under `lock`): the configured idle
    /// lifetime, or less when no kept connection could be reused that long.
    func idleLifetimeLocked() -> Double {
        let longest = origins.values.map { keepAliveLimitLocked($0) }.max() ?? configuration.idleLifetime
        return min(configuration.idleLifetime, longest)
    }

    private func keepAliveLimitLocked(_ use: OriginUse?) -> Double {
        // A second less than the server's word: a request sent as it closes the connection would be lost.
        let server = use?.serverTimeout.map { max($0 - 1, 0) } ?? .infinity
        return max(min(configuration.idleLifetime, server), 0)
    }

    private func isLive(_ use: OriginUse, now: Double) -> Bool {
        use.transfers > 0 || now - use.lastUsed < keepAliveLimitLocked(use)
    }
}

/// A preconnect's sink: its answer is not read (the connection is what it is for).
private final class PreconnectSink: TransferSink {
    func transferReceived(head: ResponseHead) -> Bool { true }
    func transferReceived(_ bytes: UnsafeRawBufferPointer) {}
    func transferFinished(_ error: MediaError?) {}
}
