import Synchronization

/// Playback first on a shared link: while any player claims the link (its buffer is short), every fetch that
/// serves no playback reader (prefetching) pauses within the chunk it is writing, and resumes when no claim is left.
extension ByteCache {
    /// Whether some player claims the link now.
    public var isLinkClaimed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return linkClaims > 0
    }

    /// Claims the link for playback until the returned claim is released (or dropped).
    public func claimLink() -> LinkClaim {
        adjustClaims(by: 1)
        return LinkClaim(cache: self)
    }

    /// Locked: whether prefetch fetches must hold.
    var linkClaimed: Bool { linkClaims > 0 }

    func adjustClaims(by delta: Int) {
        condition.lock()
        defer { condition.unlock() }
        let before = linkClaims > 0
        linkClaims = max(linkClaims + delta, 0)
        guard before != (linkClaims > 0) else { return }
        for resource in resources.values {
            for fetch in resource.fetches { fetch.pace() }
        }
    }
}

/// A player's claim on the link (``ByteCache/claimLink()``): prefetching holds while any claim is alive.
public final class LinkClaim: Sendable {
    private let cache: ByteCache
    private let released = Atomic<Bool>(false)

    init(cache: ByteCache) { self.cache = cache }

    /// Ends the claim (once; dropping it does the same).
    public func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        cache.adjustClaims(by: -1)
    }

    deinit { release() }
}
