import Loading

/// Something the feed decided under its lock (``FeedState/step(_:at:facts:)``) and does after releasing it, in
/// the order decided: the calls on the pool, the players, the loader and the byte cache, the link claims, the
/// posters, and the events. Players and prefetches are named by index (a pool player's place in
/// ``PlayerPool/players``, a prefetch's number), so a decision is a plain value that a test can compare.
enum FeedWork: Sendable, Equatable {
    /// Which claim on the link: the active item's while its buffer is short, or the prepared item's while it has
    /// the link to itself.
    enum Link: Sendable, Hashable {
        case active, prepared
    }

    /// Acquire pool player `player` and give it a new item of entry `index`'s URL: `active` to play it (playback
    /// priority), else to hold it paused on its first frame (prefetch priority, ``FeedConfiguration/preparedBuffer``
    /// ahead). The driver reports ``FeedState/Input/loaded(index:player:since:)`` before the item goes in.
    case load(index: Int, player: Int, active: Bool)
    /// Item `index` reads `url` (the rendition chosen for it) from now on: its load, prefetches, poster and
    /// cached bytes.
    case chooseRendition(index: Int, url: String)
    /// Item `index`, an HLS or DASH entry, plays variants of at most `peakBitRate` bits per second (its prefetch
    /// starts on the variant its player will, its player never climbs higher): ``FeedState/adaptivePeakBitRate``.
    case capVariants(index: Int, peakBitRate: Double)
    /// Give pool player `player` (item `index`'s) back to the pool: paused, its item taken away.
    case release(index: Int, player: Int)
    /// Item `index` is the active one: playback priority, ``FeedConfiguration/activeForwardBuffer`` ahead, and its
    /// player plays (a video).
    case play(index: Int, video: Bool)
    /// Item `index`'s video ended while active: it plays from its start again.
    case loop(index: Int)
    /// In a grid: item `index`'s player is muted, or has the sound.
    case setMuted(index: Int, muted: Bool)
    /// Item `index`'s reading priority on the link.
    case setPriority(index: Int, TransferPriority)
    /// Fetch entry `index`'s bytes ahead, up to `limit` (nil: all), as prefetch number `id`; `announce`: report
    /// its start (`feed.prefetch` started) first, stamped `time`.
    case startPrefetch(index: Int, id: UInt64, limit: Int64?, announce: Bool, time: Double)
    /// Prefetch number `id` of video `index`: up to what its first pictures need, as its held header says, or
    /// `fallback` when it does not tell.
    case startFirstPictures(index: Int, id: UInt64, fallback: Int64)
    /// Prefetch number `id` of item `index` is done with: cancelled first when `cancel`, and reported with
    /// `outcome` (the bytes held within its limit then), stamped `time`.
    case endPrefetch(index: Int, id: UInt64, cancel: Bool, outcome: FeedEvent.PrefetchOutcome?, time: Double)
    /// Take or give back a claim on the link.
    case claimLink(Link)
    case releaseLink(Link)
    /// Drop the cached bytes of these items, in this order, reporting each (`feed.trimmed`, stamped `time`); the
    /// driver reports how many it dropped (``FeedState/Input/cacheTrimmed(count:)``).
    case dropCached([Int], time: Double)
    /// Drop the posters held in memory.
    case trimPosters
    /// Ask for item `index`'s poster (`visible`: the item on screen, first in line); the answer comes back as
    /// ``FeedState/Input/posterReady(index:fromCache:)`` or ``FeedState/Input/posterFailed(index:)``.
    case requestPoster(index: Int, visible: Bool)
    /// Stop waiting for item `index`'s poster.
    case cancelPoster(index: Int)
    /// Read the process's resident memory (``FeedState/Input/memorySampled(_:)``).
    case sampleMemory
    /// On a thread of its own, hand freed heap back and tell whether the process is still over `budget` bytes
    /// beyond `start` (``FeedState/Input/memoryReleased(over:)``).
    case releaseFreeMemory(start: Int, budget: Int)
    /// Ask the page source for the entries after the first `after` (on a thread of the feed's); the answer comes
    /// back as ``FeedState/Input/pageLoaded(after:_:)``.
    case requestPage(after: Int)
    /// The entries before `before` left the list, and with them these URLs: stop counting their bytes (those of
    /// URLs not watched, `false`, stay in the summary's unwatched figure); of them, the items `watched` were active
    /// (the bytes of an HLS or DASH item's playlists and segments count as unwatched unless it was).
    case forgetEntries(before: Int, urls: [String: Bool], watched: Set<Int>)
    /// Open a connection to the server of entry `index` (its chosen rendition's URL, with its headers) ahead of its
    /// bytes: no connection to it was open when the step began (``HTTPLoader/preconnect(_:headers:)``).
    case preconnect(index: Int)
    /// Learn the length of `url` (entry `index`'s, ``FeedEntry/sizeProbeURL``) with the entry's headers, from the
    /// byte cache or a `HEAD`: the answer comes back as ``FeedState/Input/sizeProbed(index:_:)``.
    case probeSize(index: Int, url: String)
    /// Deliver an event (numbered when delivered, so that the numbers follow the delivery order).
    case emit(FeedEvent.Kind, time: Double)
}

extension FeedWork {
    /// The item whose bytes this work asks for (its player's load, a prefetch, its poster), if any: its rendition
    /// must be chosen before.
    var readsBytesOf: Int? {
        switch self {
        case .load(let index, _, _), .startPrefetch(let index, _, _, _, _), .startFirstPictures(let index, _, _),
            .requestPoster(let index, _):
            return index
        default:
            return nil
        }
    }
}
