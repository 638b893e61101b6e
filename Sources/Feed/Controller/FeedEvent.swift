import Loading
import Streaming

/// Something a feed did, for its log and its summary (the CLI's `--json` prints these).
public struct FeedEvent: Sendable, Equatable {
    /// How a prefetch ended.
    public enum PrefetchOutcome: Sendable, Equatable, CustomStringConvertible {
        case started
        /// It holds the bytes it was asked for.
        case finished
        /// It was no longer wanted (what arrived stays cached).
        case cancelled
        case failed(String)

        public var description: String {
            switch self {
            case .started: return "started"
            case .finished: return "finished"
            case .cancelled: return "cancelled"
            case .failed(let reason): return "failed: \(reason)"
            }
        }
    }

    /// What an item's cell shows (``Kind/picture(index:shows:)``).
    public enum Picture: String, Sendable, Equatable, CaseIterable {
        /// Its player's first frame (a video's decoded first picture, an image).
        case firstFrame
        /// Its poster: a stand-in made small by the poster pipeline, until its player has a frame.
        case poster
        /// Nothing: an empty cell.
        case nothing
    }

    public enum Kind: Sendable, Equatable {
        /// The item came on screen (scrolled to).
        case visible(index: Int)
        /// The item became the active one: `prepared` when a player held it ready, `hasFrame` when that player
        /// showed its first frame already.
        case active(index: Int, prepared: Bool, hasFrame: Bool)
        /// A prefetch of the item's bytes (up to `byteLimit`, nil: all) started or ended; `bytes` it holds
        /// (cached) within the limit then.
        case prefetch(index: Int, byteLimit: Int64?, bytes: Int64, outcome: PrefetchOutcome)
        /// A pooled player got the item ahead (paused, first frame decoded): `ready` once that frame is shown.
        case prepared(index: Int, player: Int, ready: Bool)
        /// The active item has a frame on screen, `latency` seconds after it became active (0 for a prepared item
        /// whose player showed its first frame already: that frame is on screen as the item arrives).
        case firstFrame(index: Int, latency: Double, prepared: Bool)
        /// The active item started: a video plays, an image is shown, `latency` seconds after it became active.
        /// Later than the first frame when the player waits for its buffer first.
        case started(index: Int, latency: Double, prepared: Bool)
        /// The active item stalled (`ended` false) or played on again after `duration` seconds (`ended` true).
        case stall(index: Int, ended: Bool, duration: Double)
        /// The item failed; the feed goes on.
        case failed(index: Int, error: String)
        /// A player of the pool was handed to the item (`waited` when none was free) or given back.
        case poolAcquire(player: Int, index: Int, waited: Bool)
        case poolRelease(player: Int, index: Int)
        /// The item's poster is ready, `latency` seconds after it came on screen (0 when it was ready before).
        case poster(index: Int, latency: Double, fromCache: Bool)
        /// Over the memory budget: the item's cached bytes were dropped, or its prepared player released.
        case trimmed(index: Int, bytes: Int64)
        /// The item plays `choice`'s rendition (an entry with ``FeedEntry/renditions``), chosen before its first
        /// byte was fetched; its prefetch, its player and its poster read that file.
        case rendition(index: Int, choice: ProgressiveRenditionChoice)
        /// The feed asked its page source for the entries from `index` on (the user neared the end).
        case pageRequested(index: Int)
        /// A page came: `count` entries, the first at `index`.
        case page(index: Int, count: Int)
        /// The page asked for at `index` could not be had; the feed goes on with what it has and asks again once
        /// the user moves on.
        case pageFailed(index: Int, error: String)
        /// The page source has no more entries after `index - 1`.
        case pagesEnded(index: Int)
        /// What the item's cell shows as it becomes active (its first frame, its poster, or nothing), and again
        /// when its poster comes while it shows nothing.
        case picture(index: Int, shows: Picture)
        /// The item became active but is a video over the link's autoload cap
        /// (``PrefetchPolicy/autoloadByteCap``): `bytes` expected (its entry's size, or its smallest rendition's),
        /// `cap` the profile's. Nothing of it loads (its cell shows its poster) until the user taps it
        /// (``FeedController/play(index:)``).
        case capped(index: Int, bytes: Int64, cap: Int64)
        /// The size of a video whose entry told none was learned before it loaded, under a cap: `bytes`, from the
        /// byte cache (`fromCache`) or a `HEAD` (``FeedEntry/sizeProbeURL``).
        case sized(index: Int, bytes: Int64, fromCache: Bool)
        /// The size probe of the video failed (`error`): its size stays unknown, and it loads as an entry without
        /// one does (never capped).
        case sizeProbeFailed(index: Int, error: String)
        /// In a grid (``FeedLayout``), the item whose player has the sound: the first visible one after a scroll
        /// that left the previous one, or the one the user tapped (``FeedController/focus(index:)``); every other
        /// visible player is muted.
        case audible(index: Int)
    }

    public var kind: Kind
    /// Seconds since the feed was made, on its clock (virtual under a manual clock).
    public var time: Double
    /// Where the event falls among every player's and feed's events in this process
    /// (`PlayerEvent.makeSequenceNumber()`).
    public var sequenceNumber: UInt64

    public init(kind: Kind, time: Double, sequenceNumber: UInt64) {
        self.kind = kind
        self.time = time
        self.sequenceNumber = sequenceNumber
    }

    /// The event's name in the JSON vocabulary (`feed.visible`, `pool.acquire`, ...).
    public var name: String {
        switch kind {
        case .visible: return "feed.visible"
        case .active: return "feed.active"
        case .prefetch: return "feed.prefetch"
        case .prepared: return "feed.prepared"
        case .firstFrame: return "feed.firstFrame"
        case .started: return "feed.started"
        case .stall: return "feed.stall"
        case .failed: return "feed.failed"
        case .poolAcquire: return "pool.acquire"
        case .poolRelease: return "pool.release"
        case .poster: return "feed.poster"
        case .trimmed: return "feed.trimmed"
        case .rendition: return "feed.rendition"
        case .pageRequested: return "feed.pageRequested"
        case .page: return "feed.page"
        case .pageFailed: return "feed.pageFailed"
        case .pagesEnded: return "feed.pagesEnded"
        case .picture: return "feed.picture"
        case .capped: return "feed.capped"
        case .sized: return "feed.sized"
        case .sizeProbeFailed: return "feed.sizeProbeFailed"
        case .audible: return "feed.audible"
        }
    }

    /// The item it concerns.
    public var index: Int {
        switch kind {
        case .visible(let index), .active(let index, _, _), .prefetch(let index, _, _, _),
            .prepared(let index, _, _), .firstFrame(let index, _, _), .started(let index, _, _),
            .stall(let index, _, _),
            .failed(let index, _), .poolAcquire(_, let index, _), .poolRelease(_, let index),
            .trimmed(let index, _), .poster(let index, _, _), .rendition(let index, _), .pageRequested(let index),
            .page(let index, _), .pageFailed(let index, _), .pagesEnded(let index), .picture(let index, _),
            .capped(let index, _, _), .audible(let index), .sized(let index, _, _), .sizeProbeFailed(let index, _):
            return index
        }
    }
}
