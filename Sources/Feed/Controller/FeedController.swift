import Foundation
import Loading
import Locking
import Playback
import Posters
import Streaming

/// A feed of short videos and images scrolled by a user: ties a ``PlayerPool``, a ``PrefetchPlanner`` and a
/// byte cache together. The item scrolled to plays (autoplay, looping); the nearest video ahead waits in a pooled
/// player with its first frame decoded; the items around fetch their start under a cost budget, giving the link
/// to the active item while its buffer is short; a failed item never blocks the rest.
///
/// Decide in a value, act in a driver: every input (a scroll, a player's event, a prefetch ending) is decided by
/// ``FeedState`` under the feed's lock, which returns the ``FeedWork`` to do; the feed does it after releasing the
/// lock, one input at a time and in order (whoever finds nobody draining the queue drains it), so the pool's, the
/// players' and the cache's locks are never taken under the feed's. Every public method may be called from any
/// thread, and from the feed's or a player's callbacks. Events are delivered on the feed's own callback executor
/// (never under its lock). Under a manual clock the feed follows the
/// clock: it reads how prefetches ended at each `advance(by:)`, after the players and the simulated link, and
/// delivers its events before the advance returns, so a scenario gives the same trace on every run.
public final class FeedController: Sendable {
    /// Every entry by its index: those given, then the pages appended (entries far behind the active one leave the
    /// list: ``FeedPaging/entriesKeptBehind``).
    public var entries: FeedEntries { state.withLock { $0.entries } }
    public let configuration: FeedConfiguration
    /// Where the entries after the last come from (nil: the feed ends with its entries).
    public let pageSource: (any FeedPageSource)?
    public let pool: PlayerPool
    public let loading: RemoteLoading
    /// With ``FeedConfiguration/posterSize``: the pipeline the posters come from (on the feed's byte cache).
    public let posters: PosterPipeline?
    let clock: ClockMode
    /// The feed's state, decided under this lock; nothing else is called while it is held.
    let state: Locked<FeedState>
    /// What the driver holds for the work it does (the players' items, the prefetches, the link claims, the
    /// poster requests): a lock of its own, taken only with `state`'s released and around nothing but its own
    /// tables.
    let driver = Locked(FeedDriver())
    let executor = CallbackExecutor(label: "playctl.feed")
    let broadcaster = EventBroadcaster<FeedEvent>()
    let start: Double
    private let fetchedAtStart: Int64
    /// The link's bytes delivered before the feed (nil: not counted; see ``bytesReceived(of:)``).
    private let receivedAtStart: Int64?
    /// Bytes fetched for each entry's URL since the feed was made (the cache may be shared).
    let fetchedByURL: FetchTally
    /// The item each URL an HLS or DASH item fetched belongs to (its playlists, segments...): counted in
    /// ``fetchedByURL`` too.
    let adaptiveFetches = AdaptiveFetches()
    let memoryAtStart: Int
    private let follower: Locked<FeedClockFollower?> = Locked(nil)
    /// The progressive URLs of the feed (its entries' and their renditions'; not HLS or DASH manifests, whose
    /// stream sessions measure their own segments): their transfers feed ``throughput``.
    let progressiveURLs: Locked<Set<String>>
    /// The throughput the feed's progressive transfers showed; its estimate goes to
    /// ``FeedConfiguration/bandwidthEstimate`` after each sample.
    let throughput = Locked(BandwidthEstimator())
    /// A grid's player events under a manual clock, handled at the next advance in the order they were made
    /// (``FeedController/clockDidAdvance()``).
    let pendingPlayerEvents = Locked<[(player: Int, event: PlayerEvent)]>([])
    /// The cache's number for the feed's transfer observer (``ByteCache/observeTransfers(_:)``).
    let transferObserver = Locked<UInt64?>(nil)

    /// A feed of `entries`, its players on `clock`, loading through `loading` (its byte cache holds what is
    /// prefetched). Nothing loads until the first ``scroll(to:speed:)``. With a `pageSource` the feed is endless:
    /// it asks for the next page when the user nears the end (``FeedConfiguration/paging``).
    public init(
        entries: [FeedEntry], pageSource: (any FeedPageSource)? = nil,
        configuration: FeedConfiguration = FeedConfiguration(), loading: RemoteLoading = .shared,
        clock: ClockMode = .host
    ) {
        self.pageSource = pageSource
        self.configuration = configuration
        self.loading = loading
        self.clock = clock
        pool = PlayerPool(
            size: configuration.effectivePoolSize, clock: clock, audio: configuration.audio,
            audioOutput: configuration.audioOutput,
            decoderThreads: configuration.effectiveDecoderThreads,
            decodedVideoBytes: configuration.effectiveDecodedVideoBytes)
        posters = configuration.posterSize.map { _ in PosterPipeline(loading: loading) }
        let start = FeedController.seconds(on: clock)
        let memoryAtStart = ProcessMemory.residentBytes()
        self.start = start
        self.memoryAtStart = memoryAtStart
        state = Locked(
            FeedState(
                entries: entries, configuration: configuration, poolSize: pool.players.count,
                manualClock: clock.manualClock != nil, memoryAtStart: memoryAtStart, clockOrigin: start,
                pages: pageSource != nil))
        fetchedAtStart = loading.cache.currentStatistics.bytesFetched
        receivedAtStart = Self.bytesReceived(of: loading.cache)
        // Every URL an entry may read: its own and its renditions'.
        let urls = Set(entries.flatMap { [$0.url] + $0.renditions.map(\.url) })
        fetchedByURL = loading.cache.tally(urls)
        progressiveURLs = Locked(urls.filter { !ManifestURI.isManifest($0) })
        for (playerIndex, player) in pool.players.enumerated() {
            player.observeEvents { [weak self] event in self?.playerEvent(event, playerIndex: playerIndex) }
        }
        observeTransfers()
        if let manual = clock.manualClock {
            let follower = FeedClockFollower(feed: self)
            self.follower.withLock { $0 = follower }
            manual.register(follower)
        }
    }

    deinit {
        if let observer = transferObserver.withLock({ $0.take() }) { loading.cache.removeTransferObserver(observer) }
        executor.close()
    }

    // MARK: Time

    private static func seconds(on clock: ClockMode) -> Double {
        if let manual = clock.manualClock { return manual.now.seconds }
        return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Seconds since the feed was made, on its clock.
    public var now: Double { Self.seconds(on: clock) - start }

    // MARK: Inputs

    /// The user scrolled to item `index` (at `speed` items a second): it becomes the active item and plays; the
    /// prefetch plan follows.
    public func scroll(to index: Int, speed: Double = 0) {
        handle(.scroll(index: index, speed: speed))
    }

    /// The user tapped item `index` (the play button over a capped item's poster): from now on it loads as any
    /// other item, over the autoload cap or not (``PrefetchPolicy/autoloadByteCap``); the item on screen starts
    /// loading and plays at once (`feed.active`, then its first frame).
    public func play(index: Int) {
        handle(.play(index: index))
    }

    /// The link changed: the budget follows (none under `.constrained`), and so does the variant cap of the HLS and
    /// DASH entries loaded from now on (``FeedConfiguration/expensiveNetworkPeakBitRate``).
    public func networkChanged(_ profile: NetworkProfile) {
        driver.withLock { $0.profile = profile }
        handle(.network(profile))
    }

    /// Drops what the feed holds beyond what it needs now, as under memory pressure: the cached bytes of every
    /// item outside the prefetch window, farthest first, and the prepared player.
    public func trimMemory() {
        handle(.trim)
    }

    // MARK: Reading

    /// The active item, once scrolled to (in a grid, the first visible one).
    public var activeIndex: Int? { state.withLock { $0.planner.active } }

    /// The items on screen (the active one; in a grid, every visible cell), in order.
    public var visibleIndices: [Int] { state.withLock { Array($0.planner.visible) } }

    /// Where item `index` stands.
    public func state(of index: Int) -> FeedItemState {
        state.withLock { state in
            if state.failed.contains(index) { return .failed }
            switch state.planner.state(of: index) {
            case .idle: return .idle
            case .prefetching, .prefetched: return .prefetching
            case .prepared: return .prepared
            case .active: return .active
            case .capped: return .capped
            case .sizing: return .sizing
            case .failed: return .failed
            }
        }
    }

    /// The pooled player holding item `index` (the active or the prepared one), if any.
    public func player(for index: Int) -> Player? {
        state.withLock { $0.slots[index]?.playerIndex }.map { pool.players[$0] }
    }

    /// What the feed did so far.
    public var summary: FeedSummary {
        let fetched = loading.cache.currentStatistics.bytesFetched - fetchedAtStart
        let received = receivedAtStart.flatMap { start in Self.bytesReceived(of: loading.cache).map { $0 - start } }
        let fetchedByURL = self.fetchedByURL.bytesFetched
        let adaptive = adaptiveFetches.snapshot
        let unwatchedDropped = driver.withLock { $0.unwatchedBytesDropped }
        let pool = self.pool.statistics
        // What the items on screen played so far, read of their players before the lock.
        let facts = readFacts(of: nil, playheads: Set(visibleIndices))
        let now = self.now
        return state.withLock { state in
            var summary = state.summary
            summary.firstFrame = FeedSummary.Latencies(state.firstFrames)
            summary.preparedFirstFrame = FeedSummary.Latencies(state.preparedFirstFrames)
            summary.coldFirstFrame = FeedSummary.Latencies(state.coldFirstFrames)
            summary.start = FeedSummary.Latencies(state.starts)
            summary.preparedStart = FeedSummary.Latencies(state.preparedStarts)
            summary.posterLatency = FeedSummary.Latencies(state.posterLatencies)
            summary.bytesFetched = fetched
            summary.bytesReceived = received ?? -1
            summary.poolWaits = pool.waits + summary.poolWaits
            // Items still on screen count up to now.
            var played = state.playedBytes
            for (index, slot) in state.slots {
                guard let since = slot.activatedAt else { continue }
                summary.watchedSeconds += now - since
                let bytes = state.bytesPlayed(index, slot, slot.playerIndex.flatMap { _ in facts[index] })
                played[index] = max(played[index] ?? 0, bytes)
                if let stalled = slot.stalledSince { summary.stallSeconds += now - stalled }
            }
            summary.bytesPlayed = played.values.reduce(0, +) + state.playedBytesDropped
            // The waste's two parts: bytes of items never on screen (prefetched, prepared), and bytes past where the
            // watched ones were left. An HLS or DASH item's playlists and segments are its own by the URLs it
            // fetched.
            let watched = Set(played.keys.map { state.url(of: $0) })
            for (url, bytes) in fetchedByURL where !watched.contains(url) {
                if let item = adaptive.owners[url], played[item] != nil { continue }
                summary.bytesFetchedUnwatched += bytes
            }
            for (item, bytes) in adaptive.folded where played[item] == nil { summary.bytesFetchedUnwatched += bytes }
            summary.bytesFetchedUnwatched += unwatchedDropped
            return summary
        }
    }

    // MARK: Events

    /// Every event from now on, in order.
    public func events(bufferLimit: Int? = nil) -> AsyncStream<FeedEvent> {
        broadcaster.subscribe(bufferLimit: bufferLimit)
    }

    /// Calls `observer` with every event from now on, in order, on the feed's callback executor.
    public func observeEvents(_ observer: @escaping @Sendable (FeedEvent) -> Void) {
        broadcaster.addSynchronousObserver(observer)
    }

    /// Returns once every event produced before the call has been delivered.
    public func eventsDelivered() async {
        await executor.drain()
    }

    /// Stops everything: prefetches are cancelled, the players stop and the event stream ends.
    public func invalidate() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.invalidated = true
            state.inputs = []
            state.results = []
            defer { state.drainWaiters = [] }
            return state.drainWaiters
        }
        let held = driver.withLock { driver -> FeedDriver in
            defer { driver = FeedDriver(invalidated: true) }
            return driver
        }
        for task in held.posterTasks.values { task.cancel() }
        for claim in held.claims.values { claim.release() }
        for prefetch in held.prefetches.values { prefetch.task.cancel() }
        for probe in held.sizeProbes.values { probe.cancel() }
        for loaded in held.loaded.values { pool.release(loaded.player) }
        for player in pool.players { player.invalidate() }
        if let observer = transferObserver.withLock({ $0.take() }) { loading.cache.removeTransferObserver(observer) }
        if let follower = follower.withLock({ $0.take() }), let manual = clock.manualClock {
            manual.unregister(follower)
        }
        for waiter in waiters { waiter.resume() }
        executor.enqueue { [broadcaster] in broadcaster.finish() }
    }
}

/// Follows a manual clock for a feed (held weakly by the clock, holding the feed weakly).
final class FeedClockFollower: ManualClockParticipant, Sendable {
    /// After every player and the simulated link (`.max - 1`).
    let clockOrder: UInt64 = .max
    private let feed: WeakFeed

    private struct WeakFeed: @unchecked Sendable { weak var value: FeedController? }

    init(feed: FeedController) { self.feed = WeakFeed(value: feed) }

    func clockDidAdvance(to time: MediaTime) async {
        await feed.value?.clockDidAdvance()
    }
}
