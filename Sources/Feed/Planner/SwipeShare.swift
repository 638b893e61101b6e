/// What a swipe costs, as a value: whether the item on screen lends the link to the next item's first pictures
/// (its header and first keyframe, the bytes its first frame needs) before its own longer read-ahead.
///
/// The prepared next item gets the link once the item on screen holds ``FeedConfiguration/preparedFetchAbove`` of
/// media. On a link slower than the media on screen (a 2-5 Mbit/s clip over 2 Mbit/s) it never gets there, and the
/// next item's first frame waited behind its read-ahead on every swipe. This decides, from the bandwidth estimate,
/// the bytes of the next item's first pictures and the dwell seen so far, whether that wait would outlast the
/// expected swipe: if so, as soon as the item on screen has started and holds ``margin`` ahead of its playhead, the
/// next item's first pictures go first.
public struct SwipeShare: Sendable, Hashable {
    /// Whether the next item's first pictures may go before the on-screen item's read-ahead (off: they wait for
    /// ``FeedConfiguration/preparedFetchAbove``).
    public var enabled = true
    /// Seconds of media the item on screen must hold ahead of its playhead before it lends the link.
    public var margin = 0.25
    /// The dwell expected before the feed saw one (seconds).
    public var assumedDwell = 3.0
    /// How many of the latest dwells the expected dwell is the median of.
    public var dwellMemory = 16

    public init() {}

    /// What the decision reads.
    public struct Situation: Sendable, Hashable {
        /// The link's estimate, bits per second (nil: none measured: nothing is lent early).
        public var estimate: Double?
        /// Bytes the next item's first frame needs from its start (its header and first keyframe).
        public var firstPicturesBytes: Int64
        /// The latest dwells seen, seconds (empty: ``SwipeShare/assumedDwell``).
        public var dwells: [Double]
        /// Seconds the item on screen has been on screen.
        public var onScreen: Double
        /// Seconds of media it holds ahead of its playhead.
        public var heldAhead: Double
        /// Its media's bit rate, bits per second (nil: unknown: nothing is lent early).
        public var mediaBitRate: Double?
        /// What it must hold before the prepared item gets the link anyway (``FeedConfiguration/preparedFetchAbove``).
        public var lendsAbove: Double

        public init(
            estimate: Double?, firstPicturesBytes: Int64, dwells: [Double], onScreen: Double, heldAhead: Double,
            mediaBitRate: Double?, lendsAbove: Double
        ) {
            self.estimate = estimate
            self.firstPicturesBytes = firstPicturesBytes
            self.dwells = dwells
            self.onScreen = onScreen
            self.heldAhead = heldAhead
            self.mediaBitRate = mediaBitRate
            self.lendsAbove = lendsAbove
        }
    }

    /// The dwell expected: the median of `dwells`, or ``assumedDwell``.
    public func expectedDwell(_ dwells: [Double]) -> Double {
        guard !dwells.isEmpty else { return assumedDwell }
        let sorted = dwells.sorted()
        return sorted[(sorted.count - 1) / 2]
    }

    /// Seconds until the item on screen holds `situation.lendsAbove` at the link's estimate while it plays
    /// (infinity when the link is not faster than its media); 0 when it holds that already.
    public func secondsToLend(_ situation: Situation) -> Double {
        guard situation.heldAhead < situation.lendsAbove else { return 0 }
        guard let estimate = situation.estimate, let rate = situation.mediaBitRate, rate > 0 else { return .infinity }
        let fill = estimate / rate - 1
        guard fill > 0 else { return .infinity }
        return (situation.lendsAbove - situation.heldAhead) / fill
    }

    /// Whether the item on screen lends the link now: it holds ``margin``, and waiting until it holds
    /// `lendsAbove`, then fetching the first pictures at the estimate, would end after the expected swipe. On a link
    /// faster than its media it also holds what it plays while the first pictures come (it does not stall for
    /// them: it gets there before long); on a slower one it would stall anyway, and lends at the margin.
    public func lendsEarly(_ situation: Situation) -> Bool {
        guard enabled, situation.heldAhead >= margin, let estimate = situation.estimate, estimate > 0,
            situation.mediaBitRate != nil
        else { return false }
        let firstPictures = Double(situation.firstPicturesBytes) * 8 / estimate
        let toLend = secondsToLend(situation)
        if toLend.isFinite && situation.heldAhead < firstPictures { return false }
        let remaining = max(expectedDwell(situation.dwells) - situation.onScreen, 0)
        return toLend + firstPictures > remaining
    }
}
