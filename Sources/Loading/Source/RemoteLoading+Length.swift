/// A resource's length before any of its bytes: what the byte cache knows of it (a response's head, in memory or
/// in the disk tier's record), else its server's answer to a `HEAD` (``Transport/probe(_:completion:)``).
public struct ResourceLength: Sendable, Equatable {
    /// The resource's length in bytes.
    public var bytes: Int64
    /// Whether the byte cache knew it (no request was sent).
    public var fromCache: Bool

    public init(bytes: Int64, fromCache: Bool) {
        self.bytes = bytes
        self.fromCache = fromCache
    }
}

extension RemoteLoading {
    /// Learns `url`'s length (with this loading's headers): at once from the cache when a response told it, else
    /// from a `HEAD` on the transport's connections. `completion` runs once, on the transport's thread or the
    /// caller's: the length, or why not (an HTTP status, a network error, or a server that did not say: `.other`).
    /// The returned handle cancels the request (nil when none was sent); a cancelled probe's completion does not run.
    @discardableResult
    public func probeLength(
        _ url: String, completion: @escaping @Sendable (Result<ResourceLength, MediaError>) -> Void
    ) -> (any TransferHandle)? {
        if let known = cache.knownLength(of: url) {
            completion(.success(ResourceLength(bytes: known, fromCache: true)))
            return nil
        }
        return transport.probe(TransferRequest(url: url, priority: .prefetch, headers: headers)) { result in
            completion(
                result.flatMap { head in
                    guard let total = head.totalLength, total >= 0 else {
                        return .failure(
                            MediaError(
                                .other, url: url, operation: .probe,
                                reason: "the server did not say the resource's length (status \(head.status))"))
                    }
                    return .success(ResourceLength(bytes: total, fromCache: false))
                })
        }
    }
}
