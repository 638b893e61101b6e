import Feed

/// What one player did over a swipe trace: for each swipe, how long the new item took to show its first frame.
public struct SwipeRun: Sendable {
    /// One swipe (the opening item is not one).
    public struct Swipe: Sendable, Equatable {
        /// The item swiped to.
        public var index: Int
        /// Seconds from the swipe to the item's first frame; nil when none came before the next swipe (or the end).
        public var latency: Double?
        /// playctl: a pooled player held the item when it became active (the feed's "prepared"); false for mpv.
        public var prepared: Bool
        /// playctl: that player showed the item's first frame already (its preparation was done).
        public var hadFrame = false
        /// How long the user stayed before the next swipe.
        public var dwell: Double
        /// Bytes of other items that reached the cache between the swipe and the first frame (trace 2 only).
        public var otherBytes: Int64?
        /// playctl: what the cell showed as the item became active (`feed.picture`); nil for mpv.
        public var picture: FeedEvent.Picture?
    }

    /// Which swipes a figure covers.
    public enum Selection: String, Sendable, CaseIterable {
        case all, prepared, cold
    }

    /// `playctl`, `naive`, `mpv --prefetch-playlist=yes`, ...
    public var name: String
    public var swipes: [Swipe] = []
    /// playctl's feed summary (nil for mpv).
    public var summary: FeedSummary?
    /// playctl: the share of the run during which the item on screen claimed the link (prefetches and the prepared
    /// item's fetch hold meanwhile), looked at every 10 ms; nil for mpv.
    public var linkClaimed: Double?
    /// Wall time of the run.
    public var seconds = 0.0
    /// Items that failed to load.
    public var failures = 0
    /// What the server sent on the run's port during the run, from its access log (the weak-link and HLS traces).
    public var bytesOnWire: Int64?
    /// The HLS feed's runs: media segments (progressive: responses) nginx sent on the run's port, by rendition
    /// (`360p`...`1080p`), from its access log.
    public var segmentsByRendition: [String: Int]?

    public init(name: String) {
        self.name = name
    }

    /// The swipes of `selection`.
    public func swipes(_ selection: Selection) -> [Swipe] {
        switch selection {
        case .all: return swipes
        case .prepared: return swipes.filter(\.prepared)
        case .cold: return swipes.filter { !$0.prepared }
        }
    }

    /// Percentiles of the first-frame latencies of `selection`; a swipe with no first frame before the next one
    /// counts as its dwell (a lower bound, so the figure is never flattering).
    public func latencies(_ selection: Selection) -> FeedSummary.Latencies {
        FeedSummary.Latencies(swipes(selection).map { $0.latency ?? $0.dwell })
    }

    /// Swipes of `selection` that showed no frame before the next swipe.
    public func missed(_ selection: Selection) -> Int {
        swipes(selection).filter { $0.latency == nil }.count
    }
}
