import Loading
import Playback

/// The controller's state, as a value under its lock.
struct FeedState {
    /// What one item has now.
    struct Slot {
        var player: Player?
        var playerIndex: Int?
        var item: PlayerItem?
        /// Events of the player numbered at or below this one came before it had this item.
        var since: UInt64 = 0
        var prefetch: PrefetchTask?
        var prefetchLimit: Int64?
        /// While an inactive video's header is fetched: how far to fetch when it does not tell what the first
        /// pictures need (``PrefetchPolicy/inactiveVideoFromHeader``).
        var prefetchFallback: Int64?
        /// Its player showed its first frame.
        var hasFrame = false
        /// Its player plays (not waiting).
        var playing = false
        /// When it became active (feed seconds), and whether it had a player and a frame then.
        var activatedAt: Double?
        var activatedPrepared = false
        var activatedWithFrame = false
        /// Since it became active: its first frame was on screen (reported), and it started (a video playing, an
        /// image shown).
        var frameShown = false
        var firstFrameReported = false
        var stalledSince: Double?
        /// Its video ended once while active (it loops): all of it was played.
        var looped = false
        /// Waiting for a free player (to prepare or play it).
        var waitsForPlayer = false
    }

    /// An item's poster: asked for (and the task waiting for it), ready, and when the item came on screen.
    struct PosterSlot {
        var task: Task<Void, Never>?
        var ready: Double?
        var visibleAt: Double?
        var reported = false
    }

    /// An input the controller handles in order.
    enum Input {
        case scroll(index: Int, speed: Double)
        case network(NetworkProfile)
        case prefetchEnded(index: Int, task: ObjectIdentifier, result: Result<Void, MediaError>)
        case player(index: Int, playerIndex: Int, event: PlayerEvent)
        case playerFreed
        case trim
        case posterReady(index: Int, fromCache: Bool)
        case posterFailed(index: Int)
    }

    var planner: PrefetchPlanner
    var slots: [Int: Slot] = [:]
    var posters: [Int: PosterSlot] = [:]
    /// The item whose poster latency is being measured (the one on screen).
    var posterVisible: Int?
    var inputs: [Input] = []
    var draining = false
    var summary = FeedSummary()
    var posterLatencies: [Double] = []
    var firstFrames: [Double] = []
    var preparedFirstFrames: [Double] = []
    var coldFirstFrames: [Double] = []
    var starts: [Double] = []
    var preparedStarts: [Double] = []
    var failed: Set<Int> = []
    /// The most of each item playing needed, over its activations: an item scrolled to again counts once.
    var playedBytes: [Int: Int64] = [:]
    var linkClaim: LinkClaim?
    /// Held while a prepared item has the link to itself (``FeedController/updatePreparedPriority(_:)``).
    var preparedClaim: LinkClaim?
    var lastMemorySample = -Double.infinity
    /// When the feed last handed freed heap back over its budget (see `FeedController.sampleMemory`), and whether
    /// that is under way.
    var lastMemoryRelease = -Double.infinity
    var releasingMemory = false
    var invalidated = false

    /// At most this many latencies are kept for the percentiles (a feed scrolled for days stays bounded).
    static let latencyLimit = 1 << 16

    mutating func recordPlayed(_ index: Int, bytes: Int64) {
        playedBytes[index] = max(playedBytes[index] ?? 0, bytes)
    }

    mutating func recordStart(latency: Double, prepared: Bool) {
        guard starts.count < Self.latencyLimit else { return }
        starts.append(latency)
        if prepared { preparedStarts.append(latency) }
    }

    mutating func record(latency: Double, prepared: Bool) {
        guard firstFrames.count < Self.latencyLimit else { return }
        firstFrames.append(latency)
        if prepared { preparedFirstFrames.append(latency) } else { coldFirstFrames.append(latency) }
    }
}
