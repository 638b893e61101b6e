/// Where one feed item stands.
public enum FeedItemState: String, Sendable, Hashable, CaseIterable {
    /// Nothing loads for it.
    case idle
    /// Its bytes (or their start) are being fetched ahead, or were.
    case prefetching
    /// A pooled player holds it paused, its first frame decoded (or on the way).
    case prepared
    /// It is the item on screen, playing.
    case active
    /// It is the item on screen, but a video over the link's autoload cap: its poster shows, nothing of it loads
    /// until ``FeedController/play(index:)``.
    case capped
    /// It is the item on screen, a video whose size is being learned (a `HEAD`: its entry tells none, and the link
    /// has an autoload cap): nothing of it loads until the answer says whether it is over the cap.
    case sizing
    /// It failed to load; the feed goes on without it.
    case failed
}
