import Playback
import Streaming

/// How a ``FeedController`` runs: its pool, its prefetch rules, the link, and the memory it may use.
public struct FeedConfiguration: Sendable {
    /// Players in the pool (at least 2: the active item's and the prepared one's; a grid's at least its cells and
    /// a row: ``effectivePoolSize``).
    public var poolSize = 5
    /// How many items are on screen at once: one (`.single`, the default) or a grid whose visible videos all play,
    /// muted but for the focused one (``FeedLayout``, docs/feed.md "Grids").
    public var layout: FeedLayout = .single
    /// The prefetch rules (cost budget, limits, window, the prepared next item).
    public var policy = PrefetchPolicy()
    /// What the link is like now (``FeedController/networkChanged(_:)`` changes it later).
    public var profile: NetworkProfile = .unconstrained
    /// The highest variant bit rate an HLS or DASH entry may play on a cellular or constrained link (its item's
    /// `preferredPeakBitRate`, as AVPlayer's `preferredPeakBitRateForExpensiveNetworks`); 0 for none. 2 Mbit/s is
    /// a 540p short video's rate: a 1080p ladder step costs 2.5 times the data for a phone-sized picture.
    public var expensiveNetworkPeakBitRate: Double = 2_000_000
    /// The highest bit rate an item may play (a rendition of an entry with ``FeedEntry/renditions``, a variant of
    /// an HLS or DASH entry), on any link; 0 for none (`AVPlayerItem.preferredPeakBitRate`).
    public var preferredPeakBitRate: Double = 0
    /// The largest picture an item may play (a rendition, a variant); nil for none
    /// (`AVPlayerItem.preferredMaximumResolution`). A rendition of unknown size is never excluded by it.
    public var preferredMaximumResolution: Resolution?
    /// Where the rendition choice of an entry with ``FeedEntry/renditions`` (and the variant choice of an HLS or DASH
    /// item the feed loads) starts from: the process's shared estimate by default, so that a feed starts at the
    /// rate its link has shown. Give a feed an estimate of its own to start it from a known rate
    /// (``SharedBandwidthEstimate/known(_:)``).
    public var bandwidthEstimate = SharedBandwidthEstimate.shared
    /// Whether the players decode audio.
    public var audio = true
    /// In a grid (``layout``), seconds of media a visible video read over a link holds ahead before it plays (or
    /// all of it): its first frame shows at once, its start waits. Four 720p items sharing an 8 Mbit/s link each
    /// fill their buffers at a fifth of a second a second, and started on the half second a player needs they
    /// stalled (4 stalls, 1.6 s, in the first second of the 2x2 grid at 8 Mbit/s).
    public var gridStartBuffer = 1.5
    /// Where the players' audio plays (the null device by default: consumed at the clock's pace, not heard). In a
    /// grid every visible player writes to it, muted but for the audible one (``FeedController/audibleIndex``).
    public var audioOutput: AudioOutput = .null
    /// Threads of each player's video decoder (0: FFmpeg's choice, the CPUs plus one). The active and the prepared
    /// item decode at once, and with frame threading each thread holds frames in flight (a 1080p frame is 3 MB):
    /// two threads each keep a 1000-swipe feed's peak memory about 12 MB lower than FFmpeg's three on two CPUs
    /// (docs/feed-bench.md), and decode a 1080p short video well above real time.
    public var decoderThreads = 2
    /// In a grid (``layout``), the video decoder threads of each player instead of ``decoderThreads``: four to nine
    /// players decode at once, and each 720p short video needs a few percent of one CPU, so threads in flight only
    /// add frames held and threads to schedule.
    public var gridDecoderThreads = 1
    /// Bytes of decoded pictures each player queues ahead of presentation; nil for the layout's: 8 MB
    /// (``Player/defaultDecodedVideoBytes``, five 720p pictures) for one item on screen, 16 MB in a grid, whose
    /// four to nine decoders (and the prepared row's) share the CPUs, and one held back for a fifth of a second
    /// ran its queue dry (a 10-20 ms stall in about half the runs of a 2x2 720p grid on 2 busy CPUs).
    public var decodedVideoBytes: Int?
    /// Whether the active video plays from its start again when it ends (as short-video feeds do).
    public var loops = true
    /// Seconds of media the prepared next item buffers ahead of its first frame (its fetch has prefetch
    /// priority: it gives way to the active item's).
    public var preparedBuffer = 1.0
    /// The active item claims the link (every prefetch holds) until this much media is buffered ahead of its
    /// playhead, or all of it; it claims again when its buffer falls under half of it or it stalls.
    public var activeBufferTarget = 3.0
    /// Once the active item plays with this much media held ahead of its playhead (seconds), a prepared item that
    /// cannot start yet (no first frame, or less than half a second of media, what a player needs to start) has the
    /// link to itself: the active item's reading and the prefetches hold until it could start, or the active item's
    /// buffer falls under half of this. The header, the first keyframe and half a second are a few hundred
    /// kilobytes, a fraction of a second of the link: the active item has the rest of the dwell to fill its buffer
    /// again. At 1.5 s a 5 Mbit/s item on screen over 8 Mbit/s reached it late in a 2 s dwell or never, and 3 to 7
    /// of the 37 prepared items of `bench --feed`'s swipe trace had no frame at their swipe; with 0.75 s for the
    /// frame and 1.5 s for the half second, the prepared item stopped between the two (its frame came when the
    /// active item was under 1.5 s) and the sweep's 1 s dwells started late: 537 loaders per 1000 against 90 with
    /// 0.75 s for both.
    public var preparedFetchAbove = 0.75
    /// When the prepared item's first pictures go before the on-screen item's read-ahead although it holds less
    /// than ``preparedFetchAbove``: on a link too slow for it to get there before the expected swipe (``SwipeShare``).
    public var swipeShare = SwipeShare()
    /// Seconds of media the active item fetches ahead of its playhead (its `preferredForwardBufferDuration`; 0:
    /// the player's automatic 30 s). Short videos are often left after a few seconds: what was fetched past that
    /// point is waste, so the feed keeps this short, above `activeBufferTarget`: 4 s against 8 s took the waste
    /// of `bench --feed`'s 14 s-dwell trace from 18.3% to 15.3%, the rebuffer ratio staying at 0.15%
    /// (docs/feed-bench.md).
    public var activeForwardBuffer = 4.0
    /// A user who reaches an item sees a spinner (a "loader impression") when it takes longer than this, in
    /// seconds, to start (a video playing, an image shown), whether a first frame is on screen or not.
    public var spinnerDelay = 0.1
    /// One budget, in bytes, for what the feed holds beyond what the process held before it: pool, byte cache,
    /// prefetched bytes. Over it, the feed trims: cached bytes of the items farthest from the active one first,
    /// then the prepared player. Nil: no budget (each cache keeps its own bound). Below zero: always over it (the
    /// process may hold less than at the start when other code freed memory since).
    public var memoryBudget: Int? = 150 << 20

    /// With a size, every item in the prefetch window gets a poster of that size (its first frame or its image,
    /// through a poster pipeline on the same byte cache: the bytes are the video's own first ones), the item on
    /// screen first; `feed.poster` says when each was ready. Nil: no posters.
    public var posterSize: (width: Int, height: Int)?
    /// With posters, how many items past the one on screen get theirs when their entry names its own picture
    /// (``FeedEntry/poster``: a few kilobytes each), whether or not the prefetch window reaches them: on a weak link
    /// the window holds the next item alone, and its thumbnail, asked for as it enters, can come after the swipe (a
    /// request waits behind the queue the link's other transfers keep). Image prefetchers of feeds reach further
    /// ahead than video preloading for the same reason.
    public var pictureLookahead = 4

    /// With a page source (``FeedController/init(entries:pageSource:configuration:loading:clock:)``): when the feed
    /// asks for the next page, and how many entries behind the active one it keeps.
    public var paging = FeedPaging()

    public init() {}

    /// The players the feed's pool has: ``poolSize``, at least 2, and with a grid at least what it needs, its
    /// visible items and the next row prepared (``FeedLayout/playersNeeded``, at most 12).
    public var effectivePoolSize: Int {
        max(poolSize, 2, layout.isGrid ? layout.playersNeeded : 0)
    }

    /// The video decoder threads of each player: ``gridDecoderThreads`` in a grid, else ``decoderThreads``.
    public var effectiveDecoderThreads: Int { layout.isGrid ? gridDecoderThreads : decoderThreads }

    /// The decoded pictures each player queues, in bytes: ``decodedVideoBytes``, or the layout's.
    public var effectiveDecodedVideoBytes: Int {
        decodedVideoBytes ?? (layout.isGrid ? 2 * Player.defaultDecodedVideoBytes : Player.defaultDecodedVideoBytes)
    }
}
