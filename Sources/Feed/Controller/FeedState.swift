import Loading
import Playback
import Streaming

/// The feed as a value: what the planner decided, what each item has, the figures of the summary. Each input
/// (``step(_:at:facts:)``) changes it and returns the ``FeedWork`` to do; the ``FeedController`` holds it under its
/// lock and does that work after releasing it. Nothing here calls a player, the pool, the loader or the cache:
/// what the decisions need of them comes in as ``ItemFacts`` and as inputs.
struct FeedState {
    /// What one item has now.
    struct Slot {
        /// The pool player holding it (its place in ``PlayerPool/players``).
        var playerIndex: Int?
        /// Events of its player numbered at or below this one came before it had this item (`.max` until the
        /// driver reports the item in: ``Input/loaded(index:player:since:)``).
        var since: UInt64 = .max
        /// The reading priority the feed gave its item.
        var priority: TransferPriority?
        /// Its prefetch under way (its number).
        var prefetch: UInt64?
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
        /// A grid's visible video waiting for ``FeedConfiguration/gridStartBuffer`` before it plays.
        var waitsToPlay = false
        /// The bytes its first pictures need from its start, once its player's header told (``ItemFacts``).
        var firstPicturesBytes: Int64?
        /// What its cell shows since it became active (``FeedEvent/Picture``).
        var picture: FeedEvent.Picture?
    }

    /// An item's poster: asked for, ready, and when the item came on screen.
    struct PosterSlot {
        var requested = false
        var ready: Double?
        var visibleAt: Double?
        var reported = false
    }

    /// An input, handled in order.
    enum Input: Sendable {
        case scroll(index: Int, speed: Double)
        case network(NetworkProfile)
        /// The user tapped item `index`: over the autoload cap or not, it loads (``PrefetchPlanner/play(_:)``).
        case play(index: Int)
        case trim
        /// Prefetch number `id` of item `index` ended.
        case prefetchEnded(index: Int, id: UInt64, result: Result<Void, MediaError>)
        /// An event of pool player `player`.
        case player(player: Int, event: PlayerEvent)
        case posterReady(index: Int, fromCache: Bool)
        case posterFailed(index: Int)
        // What the driver's work brought back.
        /// Pool player `player` took item `index`'s new item; its events are numbered above `since`.
        case loaded(index: Int, player: Int, since: UInt64)
        /// Pool player `player` was not free (someone else took it from the pool): item `index` waits for another.
        case playerUnavailable(index: Int, player: Int)
        /// `count` items' cached bytes were dropped.
        case cacheTrimmed(count: Int)
        /// The process's resident memory in bytes (below zero: not measured).
        case memorySampled(Int)
        /// Freed heap went back; `over`: the process is still over the budget.
        case memoryReleased(over: Bool)
        /// A page of entries to add after the last one (``FeedController/append(_:)``).
        case append([FeedEntry])
        /// The page source answered the request made when the feed had `count` entries.
        case pageLoaded(after: Int, Result<[FeedEntry], MediaError>)
        /// In a grid, the user tapped visible item `index`: it has the sound (``FeedController/focus(index:)``).
        case focus(index: Int)
        /// Item `index`'s size probe answered (``FeedWork/probeSize(index:url:)``).
        case sizeProbed(index: Int, Result<ResourceLength, MediaError>)
    }

    /// Every entry by its index (pages appended; those long scrolled past dropped).
    var entries: FeedEntries { planner.entries }
    let configuration: FeedConfiguration
    /// Under a manual clock the trace must not depend on the allocator: trims happen only when asked.
    let manualClock: Bool
    /// The process's resident memory when the feed was made (below zero: not measured).
    let memoryAtStart: Int
    /// The clock's time when the feed was made (a player event's time under a manual clock is counted from it).
    let clockOrigin: Double
    let posters: Bool
    /// Whether a page source gives more entries when the user nears the end.
    let pages: Bool
    var paging = PagingState()

    var planner: PrefetchPlanner
    var slots: [Int: Slot] = [:]
    /// The pool's players free now, by index, in the order the feed takes them.
    var freePlayers: [Int]
    var nextPrefetch: UInt64 = 0
    var posterSlots: [Int: PosterSlot] = [:]
    /// The rendition each item with renditions plays, chosen before its first byte (``chooseRenditions()``).
    var renditionChoices: [Int: ProgressiveRenditionChoice] = [:]
    /// The peak bit rate of each adaptive item's variants, decided before its first byte (``capVariants()``).
    var variantCaps: [Int: Double] = [:]
    /// The item whose poster latency is being measured (the one on screen).
    var posterVisible: Int?
    var summary = FeedSummary()
    var posterLatencies: [Double] = []
    var firstFrames: [Double] = []
    var preparedFirstFrames: [Double] = []
    var coldFirstFrames: [Double] = []
    var starts: [Double] = []
    var preparedStarts: [Double] = []
    var failed: Set<Int> = []
    /// The items that were capped on screen, and whether each was tapped since (the summary counts each once).
    var cappedItems: [Int: Bool] = [:]
    /// When each item on screen waiting for its size came on screen: its activation counts from then.
    var sizingSince: [Int: Double] = [:]
    /// The most of each item playing needed, over its activations: an item scrolled to again counts once.
    var playedBytes: [Int: Int64] = [:]
    /// What the entries dropped from the list had played (``updatePaging()``).
    var playedBytesDropped: Int64 = 0
    /// The claims on the link the feed holds (the driver holds the claims themselves).
    var linkClaimed = false
    /// The item on screen left in this step holding the claim: it is released at the step's end unless the item
    /// swiped to took it over. Released at once, it left a moment without a claim at every swipe (the work between
    /// the release and the next claim), in which every prefetch held by it asked for its next range: over a shaped
    /// link a range asked for is queued whole (256 KB, a second of a 2 Mbit/s link), and the weak-link trace's
    /// swipes queued an image's two chunks and the prepared item's chunk ahead of the item swiped to's next bytes,
    /// which stalled.
    var handsClaimOver = false
    /// Held while a prepared item has the link to itself (``updatePreparedPriority()``).
    var preparedClaimed = false
    /// The prepared item whose first pictures go before the on-screen item's read-ahead (``SwipeShare``), until
    /// its frame shows; and the latest dwells (seconds on an item before the next scroll), at most
    /// ``SwipeShare/dwellMemory``.
    var lendingEarly: Int?
    var dwells: [Double] = []
    /// In a grid: the visible item whose player has the sound (the others are muted), and the scrolls that moved
    /// the grid (the first screen's cells are no swipes: ``showPicture(_:)``).
    var audible: Int?
    var gridScrolls = 0
    var lastMemorySample = -Double.infinity
    /// When the feed last handed freed heap back over its budget, and whether that is under way.
    var lastMemoryRelease = -Double.infinity
    var releasingMemory = false
    var invalidated = false

    // The step under way: its time, what was read of the items, and the work decided so far.
    var now = 0.0
    var facts: [Int: ItemFacts] = [:]
    /// The bandwidth estimate read for the step (bits per second; nil: none measured).
    var estimate: Double?
    var work: [FeedWork] = []

    // The driver's queue (``FeedController``): inputs from outside, and what performed work brought back (handled
    // first); whether a thread is draining them.
    var inputs: [Input] = []
    var results: [Input] = []
    var draining = false
    /// Waiting for the drain to end (``FeedController/drained()``).
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// At most this many latencies are kept for the percentiles (a feed scrolled for days stays bounded).
    static let latencyLimit = 1 << 16

    init(
        entries: [FeedEntry], configuration: FeedConfiguration, poolSize: Int, manualClock: Bool,
        memoryAtStart: Int = -1, clockOrigin: Double = 0, pages: Bool = false
    ) {
        self.clockOrigin = clockOrigin
        self.pages = pages
        self.configuration = configuration
        self.manualClock = manualClock
        self.memoryAtStart = memoryAtStart
        posters = configuration.posterSize != nil
        planner = PrefetchPlanner(
            entries: entries, policy: configuration.policy, profile: configuration.profile,
            layout: configuration.layout)
        freePlayers = Array(0..<poolSize)
    }

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

    /// Decides: reports `kind` (stamped `time`, default the step's).
    mutating func emit(_ kind: FeedEvent.Kind, at time: Double? = nil) {
        work.append(.emit(kind, time: time ?? now))
    }

    /// The bytes playing item `index` needed, up to where it was watched (all of it once it looped).
    func bytesPlayed(_ index: Int, _ slot: Slot, _ facts: ItemFacts?) -> Int64 {
        guard let facts else { return 0 }
        if slot.looped || entries[index].kind == .image { return facts.totalLength ?? facts.streamBytesToEnd ?? 0 }
        return facts.playedOffset ?? 0
    }

    /// The items whose players the decision of `input` may read (``ItemFacts``), and the one whose playhead it may
    /// read: the active item when it reads over a link (its buffer decides the link's claims) or a scroll may leave
    /// it (the bytes it played, at its playhead); a prepared item once it has its first frame, or when the input is
    /// its player's (whether it could start, by what it holds from its start). A feed of local files reads nothing
    /// but what it leaves.
    func factsNeeded(for input: Input) -> (items: Set<Int>, playhead: Int?) {
        let needed = factsAndPlayheadsNeeded(for: input)
        return (needed.items, needed.playheads.min())
    }

    /// ``factsNeeded(for:)`` with the playheads of every visible item it reads (a grid reads several).
    func factsAndPlayheadsNeeded(for input: Input) -> (items: Set<Int>, playheads: Set<Int>) {
        var items = Set<Int>()
        var playheads = Set<Int>()
        let eventOf: Int? = {
            if case .player(let player, _) = input { return player }
            return nil
        }()
        for (index, slot) in slots {
            guard let player = slot.playerIndex else { continue }
            if planner.isVisible(index), slot.activatedAt != nil {
                var scroll = false
                if case .scroll = input { scroll = true }
                if scroll || RemoteLoading.isRemote(entries[index].url) {
                    items.insert(index)
                    playheads.insert(index)
                }
            } else if slot.hasFrame || eventOf == player {
                items.insert(index)
            }
        }
        return (items, playheads)
    }

    // MARK: The driver's queue

    /// Queues an input; true when the caller must drain (nobody else is draining). A player event that is only a
    /// prompt (``isPrompt(_:)``) replaces the one of the same player still queued, so the queue holds at most one
    /// prompt per player beside the events the state acts on by kind (rare: a first frame, a status, an end): it
    /// stays small however often players report while a drain is busy.
    mutating func enqueue(_ input: Input) -> Bool {
        guard !invalidated else { return false }
        if case .player(let player, let event) = input, Self.isPrompt(event),
            let queued = inputs.lastIndex(where: { queued in
                guard case .player(player, let other) = queued else { return false }
                return Self.isPrompt(other)
            })
        {
            inputs[queued] = input
        } else {
            inputs.append(input)
        }
        guard !draining else { return false }
        draining = true
        return true
    }

    /// Whether the state acts on `event` only as a prompt to look again at its item (its first frame, its link
    /// claim, from facts read when the prompt is handled): every kind but a first frame, a change of time control,
    /// a failure and an end. Of two prompts of one player still queued, the later one does all the earlier would.
    static func isPrompt(_ event: PlayerEvent) -> Bool {
        switch event.kind {
        case .firstFrame, .timeControlStatus, .itemStatus(.failed, _, _), .didPlayToEnd: return false
        default: return true
        }
    }

    /// Inputs queued now (a drain takes them in order).
    var queuedInputs: Int { inputs.count }

    /// The next input to handle (what performed work brought back first), or nil (and the drain ends).
    mutating func nextInput() -> Input? {
        if !invalidated {
            if !results.isEmpty { return results.removeFirst() }
            if !inputs.isEmpty { return inputs.removeFirst() }
        }
        draining = false
        return nil
    }
}
