import Foundation

/// HTTP caching (RFC 9111) over the held bytes: before a reader uses bytes held of a resource, they are checked once
/// for the current use (from its first reader to the moment none has been left for
/// ``ByteCache/Configuration/useGrace`` seconds): fresh, they are used as they are; stale (or `no-cache`), the server
/// is asked first with a conditional request (`If-None-Match`, `If-Modified-Since`), whose 304 refreshes the record
/// and keeps the bytes, and whose other answer (another version) drops them.
extension CacheState {
    /// The wall clock, in seconds since 1970: HTTP's dates are wall-clock times.
    static func now() -> Double { Date().timeIntervalSince1970 }

    /// What reader `id` must do before it uses bytes held: nothing (nil), wait for a revalidation under way, or
    /// nothing after all when a revalidation failed (the failure is recorded for its reads). A use's first check
    /// decides: fresh bytes (or bytes without caching information, from a simulated link) are used; stale bytes
    /// with a validator are revalidated (with the reader's headers); stale bytes without one are dropped (fetched
    /// again).
    mutating func freshnessGate(_ id: ReaderID) -> ReadAnswer? {
        guard let reader = readers[id], let resource = resources[reader.url] else { return nil }
        switch resource.validation {
        case .valid: return nil
        case .pending: return .wait(changes)
        case .lapsing(let since)
        where Self.now() - since < configuration.useGrace && resource.head?.serves(reader.headers) != false:
            resources[reader.url]?.validation = .valid
            return nil
        case .unchecked, .lapsing: break
        }
        let url = reader.url
        if let head = resource.head, !head.serves(reader.headers) {
            // Another variant (the response's Vary names a field whose value differs): not this reader's bytes.
            if resource.fetches.isEmpty { purge(url) }
            resources[url]?.validation = .valid
            return nil
        }
        guard let head = resource.head, let caching = head.caching, !caching.isFresh(at: Self.now()) else {
            resources[url]?.validation = .valid
            return nil
        }
        let held = !(resource.chunks.isEmpty && (disk?.payloads(of: url).isEmpty ?? true))
        guard held, !head.validator.isEmpty, resource.fetches.isEmpty else {
            // Nothing held (a fetch brings the current version), or nothing to ask with: start afresh.
            if resource.fetches.isEmpty { purge(url) }
            resources[url]?.validation = .valid
            return nil
        }
        let serial = nextNumber()
        resources[url]?.validation = .pending(serial)
        statistics.revalidations += 1
        let request = TransferRequest(
            url: url, start: 0, end: 1, priority: reader.priority, headers: reader.headers,
            conditional: head.validator)
        actions.append(.revalidate(serial: serial, request: request, transport: reader.transport))
        return .wait(changes)
    }

    /// The answer to revalidation `serial` of `url`: a 304 (or the same version) refreshes what the server says of
    /// reuse and keeps the bytes; another version drops them (the readers fetch the new one).
    mutating func revalidated(_ url: String, serial: UInt64, head: ResponseHead, headers: [String: String]) {
        guard resources[url]?.validation == .pending(serial), let old = resources[url]?.head else { return }
        if head.status == 304 || old.validator.matches(head.validator) && !head.validator.isEmpty {
            var refreshed = old
            if var caching = head.caching {
                // A 304 carries the fields that changed; what it leaves out stays as stored (RFC 9111 section 4.3.4).
                if caching.lastModified == nil { caching.lastModified = old.caching?.lastModified }
                if caching.vary == nil { caching.vary = old.caching?.vary }
                refreshed.caching = caching
            }
            if head.status == 304 { statistics.revalidationsConfirmed += 1 }
            setHead(url, refreshed)
        } else {
            purge(url)
            resources[url]?.head = ResourceHead(
                totalLength: head.totalLength, validator: head.validator, acceptsRanges: head.acceptsRanges,
                caching: head.caching,
                variant: head.caching?.vary.map { CacheDirectives.variant(of: headers, varyingOn: $0) })
            resources[url]?.validation = .valid
        }
        signal()
    }

    /// Revalidation `serial` of `url` ended: without an answer (`error`, or nothing), the held bytes are used
    /// anyway while the response allows it (not `no-cache` nor `must-revalidate`, and not an HTTP error status);
    /// otherwise they are dropped and the failure is every reader's answer.
    mutating func revalidationEnded(_ url: String, serial: UInt64, error: MediaError?) {
        guard resources[url]?.validation == .pending(serial), var resource = resources[url] else { return }
        let caching = resource.head?.caching
        let error =
            error
            ?? MediaError(.connectionLost, url: url, operation: .read, reason: "the revalidation got no answer")
        if error.kind != .httpStatus && caching?.noCache != true && caching?.mustRevalidate != true {
            resources[url]?.validation = .valid
            signal()
            return
        }
        purge(url)
        resource = resources[url] ?? resource
        resource.failures += 1
        resource.failure = (0, nil, error, resource.failures)
        resource.validation = .valid
        resources[url] = resource
        signal()
    }

    /// The last reader of `url` left with no fetch running (or the last fetch ended with no reader): the use ends
    /// unless another reader comes within ``ByteCache/Configuration/useGrace`` (the next use checks again), and a
    /// `no-store` resource's bytes go from memory at once.
    mutating func useEnded(_ url: String) {
        guard let resource = resources[url], resource.readers.isEmpty, resource.fetches.isEmpty else { return }
        if resource.head?.caching?.noStore == true {
            purge(url)
            resources[url]?.validation = .unchecked
            return
        }
        if resource.validation == .valid { resources[url]?.validation = .lapsing(since: Self.now()) }
    }
}

/// Receives a revalidation's answer on the transport's thread and hands it to the cache's state: its head (then
/// the transfer is ended: a 304 has no body, and another version is fetched by the readers), or its failure.
final class RevalidationReceiver: TransferSink, @unchecked Sendable {
    let cache: ByteCache
    let url: String
    let serial: UInt64
    /// The request's header fields (its variant, when the answer is another version).
    let headers: [String: String]
    /// Set on the transport's thread only.
    private var answered = false

    init(cache: ByteCache, url: String, serial: UInt64, headers: [String: String]) {
        self.cache = cache
        self.headers = headers
        self.url = url
        self.serial = serial
    }

    func transferReceived(head: ResponseHead) -> Bool {
        answered = true
        cache.withState { $0.revalidated(url, serial: serial, head: head, headers: headers) }
        // A whole new version (a server that ignored the range): not taken here, the readers fetch it.
        return head.status != 200
    }

    func transferReceived(_ bytes: UnsafeRawBufferPointer) {
        cache.withState { $0.countReceived(bytes.count, for: url) }
    }

    func transferFinished(_ error: MediaError?) {
        guard !answered else { return }
        cache.withState { $0.revalidationEnded(url, serial: serial, error: error) }
    }
}
