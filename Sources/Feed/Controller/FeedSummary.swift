/// What a feed did, in figures: how fast items showed, how often they stalled or made the user wait, what the
/// link carried for nothing, how the pool served, and the memory it took.
public struct FeedSummary: Sendable, Equatable {
    /// Times in seconds (nearest-rank percentiles); zero when there were none.
    public struct Latencies: Sendable, Equatable {
        public var count = 0
        public var p50 = 0.0
        public var p95 = 0.0
        public var max = 0.0

        public init(_ values: [Double]) {
            let sorted = values.sorted()
            count = sorted.count
            guard !sorted.isEmpty else { return }
            func rank(_ p: Double) -> Double {
                sorted[Swift.min(Swift.max(Int((p * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)]
            }
            p50 = rank(0.5)
            p95 = rank(0.95)
            max = sorted[sorted.count - 1]
        }
    }

    /// Items that became active.
    public var activations = 0
    /// From becoming active to a frame on screen: every item, the prepared ones, the others.
    public var firstFrame = Latencies([])
    public var preparedFirstFrame = Latencies([])
    public var coldFirstFrame = Latencies([])
    /// From becoming active to the start (a video playing, an image shown): every item, the prepared ones.
    public var start = Latencies([])
    public var preparedStart = Latencies([])
    /// With posters: from an item coming on screen to its poster (0 when it was ready before), and posters made.
    public var posterLatency = Latencies([])
    public var postersReady = 0
    /// Stalls of active items, the seconds they lasted, and the seconds active items were on screen.
    public var stalls = 0
    public var stallSeconds = 0.0
    public var watchedSeconds = 0.0
    /// Bytes the loader fetched while the feed ran, and the bytes playing needed (each item up to where it was
    /// watched; all of it when it looped; once, however often it was scrolled to).
    public var bytesFetched: Int64 = 0
    public var bytesPlayed: Int64 = 0
    /// Bytes the link delivered while the feed ran: the transports' body bytes, aborted transfers included (what the
    /// user's data plan paid for); -1 when the byte cache does not count them (``bytesFetched`` counts what the
    /// cache kept).
    public var bytesReceived: Int64 = -1
    /// Of ``bytesFetched``: those of items that were never active (prefetched or prepared, then left). The rest of
    /// the waste is what watched items fetched past where they were left.
    public var bytesFetchedUnwatched: Int64 = 0
    /// Swipes (activations after the feed's first) whose cell showed nothing at all as the item became active:
    /// neither its first frame nor its poster (``FeedEvent/Picture/nothing``); and those that showed its poster.
    public var blankSwipes = 0
    public var posterSwipes = 0
    /// Items that became active and did not start (play, or show an image) within the spinner's delay, or failed:
    /// the user waited, with a spinner over a still frame or an empty cell.
    public var loaderImpressions = 0
    /// Of those: items that showed a frame but never started playing while they were on screen.
    public var frozenStarts = 0
    public var failures = 0
    /// Prefetches started, and how they ended.
    public var prefetchesStarted = 0
    public var prefetchesFinished = 0
    public var prefetchesCancelled = 0
    public var prefetchesFailed = 0
    /// Players handed out at once, and the times the feed had to wait for one.
    public var poolHits = 0
    public var poolWaits = 0
    /// Trims over the memory budget.
    public var trims = 0
    /// Pages of an endless feed: those that came, the entries they added, and the requests that failed.
    public var pagesLoaded = 0
    public var entriesAppended = 0
    public var pageFailures = 0
    /// Byte caps (``PrefetchPolicy/autoloadByteCap``): the items that came on screen over the link's cap (their
    /// poster shown, nothing of them loaded: `feed.capped`), each counted once, and those of them the user tapped to
    /// play (``FeedController/play(index:)``).
    public var cappedItems = 0
    public var cappedItemsTapped = 0
    /// Size probes: the videos without a size the feed sized before loading them under a cap (from the byte cache
    /// or a `HEAD`: ``FeedEntry/sizeProbeURL``), and the probes that failed (`feed.sizeProbeFailed`).
    public var sizeProbes = 0
    public var sizeProbeFailures = 0
    /// The most resident memory seen while the feed ran, in bytes (-1: not measured).
    public var peakMemory = -1

    public init() {}

    /// Stalled time over watched time.
    public var rebufferRatio: Double { watchedSeconds > 0 ? stallSeconds / watchedSeconds : 0 }
    /// Bytes fetched and never played, over the bytes played.
    public var wasteRatio: Double {
        bytesPlayed > 0 ? Double(max(bytesFetched - bytesPlayed, 0)) / Double(bytesPlayed) : 0
    }
    /// Bytes fetched and never played: ``bytesFetchedUnwatched``, and what watched items fetched past where they
    /// were left (re-fetches of evicted bytes included).
    public var bytesWasted: Int64 { max(bytesFetched - bytesPlayed, 0) }
    /// ``loaderImpressions`` per 1000 activations.
    public var loaderImpressionsPer1000: Double {
        activations > 0 ? Double(loaderImpressions) * 1000 / Double(activations) : 0
    }
}
