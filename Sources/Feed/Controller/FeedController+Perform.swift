import Foundation
import Loading
import Playback
import Posters
import Streaming

/// What the driver holds for the work it does: the items its pool players hold, the prefetches under way, the
/// claims on the link, the poster requests. Only the drainer changes it (and ``FeedController/invalidate()``).
struct FeedDriver: Sendable {
    struct Loaded: Sendable {
        let player: Player
        let item: PlayerItem
    }

    struct Prefetch: Sendable {
        let index: Int
        let task: any FeedPrefetchHandle
        let limit: Int64?
    }

    /// By item.
    var loaded: [Int: Loaded] = [:]
    /// By number.
    var prefetches: [UInt64: Prefetch] = [:]
    var claims: [FeedWork.Link: LinkClaim] = [:]
    /// By item.
    var posterTasks: [Int: Task<Void, Never>] = [:]
    /// After ``FeedController/invalidate()``: no work is done.
    var invalidated = false
    /// The link as last reported (the variant cap of adaptive entries follows it).
    var profile: NetworkProfile?
    /// The URL each item with a chosen rendition reads (``FeedWork/chooseRendition(index:url:)``).
    var urls: [Int: String] = [:]
    /// The peak bit rate of each adaptive item's variants (``FeedWork/capVariants(index:peakBitRate:)``).
    var variantCaps: [Int: Double] = [:]
    /// The page request under way: the number of entries it was made at, and its answer once it came (under a
    /// manual clock the answer waits for the next advance: ``FeedController/clockDidAdvance()``).
    var page: PageRequest?
    /// Bytes fetched for URLs that left the list without being watched.
    var unwatchedBytesDropped: Int64 = 0
    /// Under a manual clock, size probes answered since the last advance (handed in at the next one, in order).
    var sizesAnswered: [(index: Int, result: Result<ResourceLength, MediaError>)] = []
    /// The size probes in flight, by item: cancelled when the feed is invalidated.
    var sizeProbes: [Int: any TransferHandle] = [:]
    /// Items whose probe answered before its handle was kept (bounded by the probes under way at once).
    var sizeProbesDone: Set<Int> = []
}

/// Doing the work the state decided, with the feed's lock released, in order (one drainer at a time).
extension FeedController {
    func perform(_ work: [FeedWork]) {
        for item in work {
            guard !driver.withLock({ $0.invalidated }) else { return }
            perform(item)
        }
    }

    private func perform(_ work: FeedWork) {
        switch work {
        case .load(let index, let player, let active): load(index, player: player, active: active)
        case .chooseRendition(let index, let url):
            driver.withLock { $0.urls[index] = url }
        case .capVariants(let index, let peakBitRate):
            driver.withLock { $0.variantCaps[index] = peakBitRate }
        case .release(let index, let player):
            let player = pool.players[player]
            driver.withLock { driver in
                if driver.loaded[index]?.player === player { driver.loaded[index] = nil }
            }
            pool.release(player)
        case .play(let index, let video):
            guard let loaded = driver.withLock({ $0.loaded[index] }) else { return }
            loaded.item.loadingPriority = .playback
            loaded.item.preferredForwardBufferDuration = configuration.activeForwardBuffer
            if video { loaded.player.play() }
        case .loop(let index):
            guard let player = driver.withLock({ $0.loaded[index]?.player }) else { return }
            player.seek(to: .zero, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity) { _ in }
            player.play()
        case .setMuted(let index, let muted):
            driver.withLock { $0.loaded[index]?.player }?.isMuted = muted
        case .setPriority(let index, let priority):
            driver.withLock { $0.loaded[index]?.item }?.loadingPriority = priority
        case .startPrefetch(let index, let id, let limit, let announce, let time):
            if announce {
                emit(
                    .prefetch(index: index, byteLimit: limit, bytes: heldBytes(index, limit: limit), outcome: .started),
                    at: time)
            }
            launchPrefetch(index, id: id, limit: limit)
        case .startFirstPictures(let index, let id, let fallback):
            launchPrefetch(index, id: id, limit: firstPicturesLimit(index, fallback: fallback))
        case .endPrefetch(let index, let id, let cancel, let outcome, let time):
            let prefetch = driver.withLock { $0.prefetches.removeValue(forKey: id) }
            if cancel { prefetch?.task.cancel() }
            guard let outcome else { return }
            let limit = prefetch?.limit
            emit(
                .prefetch(index: index, byteLimit: limit, bytes: heldBytes(index, limit: limit), outcome: outcome),
                at: time)
        case .claimLink(let link):
            let claim = loading.cache.claimLink()
            let replaced = driver.withLock { driver -> LinkClaim? in
                guard !driver.invalidated else { return claim }
                defer { driver.claims[link] = claim }
                return driver.claims[link]
            }
            replaced?.release()
        case .releaseLink(let link):
            driver.withLock { $0.claims.removeValue(forKey: link) }?.release()
        case .dropCached(let indices, let time):
            var count = 0
            for index in indices {
                let bytes = heldBytes(index, limit: nil)
                guard bytes > 0 else { continue }
                loading.cache.remove(url(of: index))
                count += 1
                emit(.trimmed(index: index, bytes: bytes), at: time)
            }
            if count > 0 { feedBack(.cacheTrimmed(count: count)) }
        case .trimPosters:
            posters?.trimMemory(toCost: 0)
        case .requestPoster(let index, let visible): requestPoster(index, visible: visible)
        case .cancelPoster(let index):
            driver.withLock { $0.posterTasks.removeValue(forKey: index) }?.cancel()
        case .sampleMemory:
            feedBack(.memorySampled(ProcessMemory.residentBytes()))
        case .releaseFreeMemory(let start, let budget):
            Thread.detachNewThread { [weak self] in
                ProcessMemory.releaseFreeMemory()
                let over = ProcessMemory.residentBytes() - start > budget
                self?.handle(.memoryReleased(over: over))
            }
        case .requestPage(let count): requestPage(after: count)
        case .forgetEntries(let before, let urls, let watched):
            forgetEntries(before: before, urls: urls, watched: watched)
        case .preconnect(let index):
            loading.adding(headers: entries[index].headers).preconnect(url(of: index))
        case .probeSize(let index, let url):
            let headers = state.withLock { $0.entries.indices.contains(index) ? $0.entries[index].headers : [:] }
            let probe = loading.adding(headers: headers).probeLength(url) { [weak self] result in
                self?.sizeProbed(index, result)
            }
            // Kept to be cancelled with the feed, unless it answered already (from the cache, or at once).
            let cancel = driver.withLock { driver -> Bool in
                let answered = driver.sizeProbesDone.remove(index) != nil
                guard !driver.invalidated else { return true }
                if !answered, let probe { driver.sizeProbes[index] = probe }
                return false
            }
            if cancel { probe?.cancel() }
        case .emit(let kind, let time):
            emit(kind, at: time)
        }
    }

    /// A size probe's answer: handled at once, or under a manual clock at the next advance (the trace then does not
    /// depend on when the transport's thread ran).
    private func sizeProbed(_ index: Int, _ result: Result<ResourceLength, MediaError>) {
        driver.withLock { driver in
            // An answer before its handle was kept (on the transport's thread, at once): it is not kept then.
            if driver.sizeProbes.removeValue(forKey: index) == nil { driver.sizeProbesDone.insert(index) }
        }
        guard clock.manualClock != nil else { return handle(.sizeProbed(index: index, result)) }
        driver.withLock { driver in
            guard !driver.invalidated else { return }
            driver.sizesAnswered.append((index, result))
        }
    }

    /// What performed work brings back: handled next, before the inputs queued meanwhile.
    private func feedBack(_ input: FeedState.Input) {
        state.withLock { state in
            guard !state.invalidated else { return }
            state.results.append(input)
        }
    }

    /// Delivers an event on the executor, numbered now (the numbers follow the delivery order).
    func emit(_ kind: FeedEvent.Kind, at time: Double) {
        let event = FeedEvent(kind: kind, time: time, sequenceNumber: PlayerEvent.makeSequenceNumber())
        executor.enqueue { [broadcaster] in broadcaster.yield(event) }
    }

    /// Pool player `playerIndex` takes a new item of entry `index`.
    private func load(_ index: Int, player playerIndex: Int, active: Bool) {
        let player = pool.players[playerIndex]
        guard pool.tryAcquire(player) else {
            feedBack(.playerUnavailable(index: index, player: playerIndex))
            return
        }
        let url = url(of: index)
        let item = PlayerItem(url: url, loading: loading(of: index, url: url))
        item.preferredPeakBitRate = variantCap(of: index)
        item.preferredMaximumResolution = configuration.preferredMaximumResolution
        item.bandwidthEstimate = configuration.bandwidthEstimate
        if !active {
            item.loadingPriority = .prefetch
            item.preferredForwardBufferDuration = configuration.preparedBuffer
        }
        let kept = driver.withLock { driver -> Bool in
            guard !driver.invalidated else { return false }
            driver.loaded[index] = FeedDriver.Loaded(player: player, item: item)
            return true
        }
        // Invalidated meanwhile: the player goes back without the item.
        guard kept else { return pool.release(player) }
        // Numbered before the item goes in, and reported first: a file that fails to open (or a first frame) can
        // be reported before replaceCurrentItem returns, and its event must not pass for one of the player's
        // earlier item.
        feedBack(.loaded(index: index, player: playerIndex, since: PlayerEvent.makeSequenceNumber()))
        player.replaceCurrentItem(with: item)
    }

    private func launchPrefetch(_ index: Int, id: UInt64, limit: Int64?) {
        let url = url(of: index)
        let task: any FeedPrefetchHandle
        if ManifestURI.isManifest(url) {
            // An HLS or DASH entry: its playlists, then the start variant's first segment (its first pictures), or
            // its first three when the plan fetches the item whole (about 6 s of a 2 s-segment ladder).
            // The limits and the estimate its player will start from, so that it fetches that variant.
            let limits = ABRLimits(
                preferredPeakBitRate: variantCap(of: index),
                preferredMaximumResolution: configuration.preferredMaximumResolution)
            task = StreamPrefetch.start(
                url, loading: loading(of: index, url: url), limits: limits,
                bandwidthEstimate: configuration.bandwidthEstimate, segments: limit == nil ? 3 : 1
            ) {
                [weak self] _ in self?.prefetchCompleted(id: id)
            }
        } else {
            task = loading.adding(headers: entries[index].headers).prefetch(url, upTo: limit) { [weak self] _ in
                self?.prefetchCompleted(id: id)
            }
        }
        let kept = driver.withLock { driver -> Bool in
            guard !driver.invalidated else { return false }
            driver.prefetches[id] = FeedDriver.Prefetch(index: index, task: task, limit: limit)
            return true
        }
        guard kept else {
            task.cancel()
            return
        }
        // Held already: it ended before the handler could find it.
        if let result = task.result {
            feedBack(.prefetchEnded(index: index, id: id, result: result))
        }
    }

    /// What item `index` reads `url` through: the feed's loading with its entry's headers; an HLS or DASH item's
    /// tells the feed every URL it fetches (its playlists, keys, initialization sections, segments), which the
    /// summary then counts as the item's (``AdaptiveFetches``).
    private func loading(of index: Int, url: String) -> RemoteLoading {
        let loading = self.loading.adding(headers: entries[index].headers)
        guard ManifestURI.isManifest(url) else { return loading }
        return loading.observingFetches { [adaptiveFetches, fetchedByURL] fetched in
            adaptiveFetches.record(fetched, item: index, tally: fetchedByURL)
        }
    }

    /// How far to fetch video `index` whose header is held: up to where its first
    /// ``PrefetchPolicy/inactiveVideoSeconds`` end (its first pictures), as its container's index says (at most
    /// ``PrefetchPolicy/inactiveVideoMaxBytes``), or `fallback` when the header does not tell.
    private func firstPicturesLimit(_ index: Int, fallback: Int64) -> Int64 {
        let url = url(of: index)
        let policy = configuration.policy
        let header = loading.cache.heldPrefix(of: url, upTo: policy.inactiveVideoHeaderBytes)
        let needed = FirstPictures.bytes(
            header: header.bytes, totalLength: header.totalLength, url: url, seconds: policy.inactiveVideoSeconds)
        return needed.map { min($0, policy.inactiveVideoMaxBytes) } ?? fallback
    }

    /// The peak bit rate an adaptive entry may play now: the lower of ``FeedConfiguration/preferredPeakBitRate``
    /// and, on a cellular or constrained link, ``FeedConfiguration/expensiveNetworkPeakBitRate`` (0: none).
    func variantCap() -> Double {
        let profile = driver.withLock { $0.profile } ?? configuration.profile
        let limits = ABRLimits(
            preferredPeakBitRate: configuration.preferredPeakBitRate,
            preferredPeakBitRateForExpensiveNetworks: configuration.expensiveNetworkPeakBitRate,
            isNetworkExpensive: profile != .unconstrained)
        return limits.effectivePeakBitRate ?? 0
    }

    /// The peak bit rate adaptive item `index` may play: ``variantCap()``, and the cap the feed's state decided for
    /// it (``FeedWork/capVariants(index:peakBitRate:)``), the lower; 0: none.
    func variantCap(of index: Int) -> Double {
        let feed = variantCap()
        guard let decided = driver.withLock({ $0.variantCaps[index] }), decided > 0 else { return feed }
        return feed > 0 ? min(feed, decided) : decided
    }

    /// The URL item `index` reads: its chosen rendition's, else its entry's.
    func url(of index: Int) -> String {
        driver.withLock { $0.urls[index] } ?? state.withLock { $0.entries[index].url }
    }

    /// Bytes of item `index` held in the cache, within `limit`.
    func heldBytes(_ index: Int, limit: Int64?) -> Int64 {
        loading.cache.cachedRanges(of: url(of: index)).reduce(Int64(0)) { total, range in
            let upper = limit.map { min(range.upperBound, $0) } ?? range.upperBound
            return total + max(upper - range.lowerBound, 0)
        }
    }

    /// Item `index`'s poster: its entry's picture (a server's thumbnail) when it names one, fetched at playback's
    /// priority (a few kilobytes, not held back by the item on screen's claim on the link), else its video's first
    /// frame (of the rendition chosen for it, which asking for the poster chooses).
    private func requestPoster(_ index: Int, visible: Bool) {
        guard let posters, let size = configuration.posterSize else { return }
        let (picture, headers) = state.withLock { ($0.entries[index].poster, $0.entries[index].headers) }
        // With the entry's headers: a signed entry's media (and its picture, on its server) answer only with them.
        let request = PosterRequest(
            source: picture ?? url(of: index), width: size.width, height: size.height, fit: .fill,
            priority: visible ? .visible : .prefetch, transferPriority: picture == nil ? nil : .playback,
            headers: headers)
        let task = Task { [weak self] in
            do throws(MediaError) {
                let poster = try await posters.poster(for: request)
                self?.handle(.posterReady(index: index, fromCache: poster.fromCache))
            } catch {
                self?.handle(.posterFailed(index: index))
            }
        }
        let replaced = driver.withLock { driver -> Task<Void, Never>? in
            guard !driver.invalidated else { return task }
            defer { driver.posterTasks[index] = task }
            return driver.posterTasks[index]
        }
        replaced?.cancel()
    }
}
