import Synchronization

/// Playback first on a shared link: while any player claims the link (its buffer is short), every fetch that
/// serves no playback reader (prefetching) pauses within the chunk it is writing, and resumes when no claim is left.
extension ByteCache {
    /// Whether some player claims the link now.
    public var isLinkClaimed: Bool { withState { $0.linkClaims > 0 } }

    /// Claims the link for playback until the returned claim is released (or dropped).
    public func claimLink() -> LinkClaim {
        withState { $0.adjustClaims(by: 1) }
        return LinkClaim(cache: self)
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
        cache.withState { $0.adjustClaims(by: -1) }
    }

    deinit { release() }
}
