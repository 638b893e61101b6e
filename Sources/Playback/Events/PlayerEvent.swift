import Streaming
import Synchronization

/// One thing that happened in a player, in the order it happened. The CLI's `--json` prints exactly these.
public struct PlayerEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// `PlayerItem.status` changed (`duration` once known, `error` when failed).
        case itemStatus(PlayerItemStatus, duration: MediaTime?, error: String?)
        /// The player's `timeControlStatus` changed; `reason` while waiting.
        case timeControlStatus(TimeControlStatus, reason: WaitingReason?)
        /// The player's `rate` changed.
        case rate(Float, previous: Float)
        /// The current item changed (`item` is the new one, nil for none).
        case currentItem
        /// The item played to its end.
        case didPlayToEnd
        /// The item could not play to its end.
        case failedToPlayToEnd(error: String)
        /// Playback ran out of media.
        case stalled
        /// The item's time changed discontinuously (a seek landed).
        case timeJumped
        /// A seek was asked for.
        case seekRequested(id: UInt64, target: MediaTime, from: MediaTime, exact: Bool, origin: SeekOrigin)
        /// A seek completed; `finished` is false when superseded or cancelled.
        case seekCompleted(
            id: UInt64, finished: Bool, landed: MediaTime?, statistics: SeekStatistics,
            latency: Double)
        /// The first frame of the item was shown; `latency` in seconds since the item became current.
        case firstFrame(latency: Double)
        /// `isPlaybackLikelyToKeepUp` changed.
        case likelyToKeepUp(Bool)
        /// `isPlaybackBufferEmpty` changed (reported for items fed over a link).
        case bufferEmpty(Bool)
        /// `isPlaybackBufferFull` changed (reported for items fed over a link).
        case bufferFull(Bool)
        /// The media time ranges whose bytes are loaded changed (items fed over a link; reported when they grew by
        /// a quarter second or more, or are complete).
        case loadedTimeRanges([TimeRange])
        /// A periodic time observer's interval passed (also sent on jumps and on start/stop).
        case periodicTime
        /// A boundary time was crossed.
        case boundaryTime(MediaTime)
        /// A damaged packet was dropped by the decoder; playback goes on.
        case decodeError(String)
        /// Host clock: frames that were late, never shown (counted in `Player.statistics.framesDropped` and the
        /// summary metric): when several frames are due at once only the newest is shown. `times` are the dropped
        /// frames' presentation times, in order; the event's `itemTime` is the playhead when they were superseded.
        case framesDropped(times: [MediaTime])
        /// The audio output in use: `"pulse"` once the sound server's device is ready, `"null"` when the player
        /// asked for none, or with `error` when the server is missing or went away (playback goes on with the null
        /// device and the player's own clock).
        case audioOutput(String, error: String?)
        /// A subtitle cue of the selected legible option began to be shown (again, after a seek into it).
        case cue(TextCue)
        /// A sample of the item's timed metadata (ID3 in MPEG-TS; MP4 `emsg` boxes and `mebx` tracks) was reached
        /// by the playhead (again, after a seek back before it): its time, its frames, event or items.
        case timedMetadata(TimedMetadataSample)
        /// The pictures' size as shown changed mid-stream (adaptive streams do this): `PlayerItem.presentationSize`.
        case presentationSize(width: Int, height: Int)
        /// An adaptive presentation (HLS, DASH) chose the variant its segments come from: the first choice of a
        /// load, then every change, when it is decided (the segment it starts with plays at `change.seconds`).
        case variantSwitch(VariantSwitch)
        /// The app selected another option of a media selection group: its display name, nil for none.
        case mediaSelection(MediaCharacteristic, option: String?)
        /// A selected option could not be played (a sidecar missing or not subtitles, bitmap subtitles, undecodable
        /// data): that option is marked failed (`PlayerItem.error(for:)`); the item plays on.
        case mediaOptionFailed(MediaCharacteristic, option: String, error: String)
    }

    public var kind: Kind
    /// Seconds since the player was created: monotonic host time, or virtual time under a manual or untimed clock.
    public var hostTime: Double
    /// The current item's time when it happened.
    public var itemTime: MediaTime
    /// The file name of the item it concerns (the current item for player events).
    public var item: String?
    /// Where the event falls among the events of every player in this process: numbers increase in the order the
    /// events happened (each player emits under its own lock, and draws its numbers there), so the events of
    /// several players, delivered on their own callback executors, merge back into that order by this number.
    public var sequenceNumber: UInt64
    /// When it happened in real time (seconds of the monotonic clock, from an arbitrary origin), whatever the
    /// player's clock: what the engine's real latencies (first frame, startup, seeks, swaps) are measured with.
    /// Not part of an event's identity (`==` ignores it): a manual clock's trace is the same on every run.
    public var wallTime: Double
    /// The item it concerns, as its ``PlayerItem/serialNumber`` (nil for none): tells apart items that share a file
    /// name (the copies a `PlayerLooper` queues). Not part of an event's identity (`==` ignores it).
    public var itemSerialNumber: UInt64?

    public init(
        kind: Kind, hostTime: Double, itemTime: MediaTime, item: String?, sequenceNumber: UInt64 = 0,
        wallTime: Double? = nil, itemSerialNumber: UInt64? = nil
    ) {
        self.kind = kind
        self.hostTime = hostTime
        self.itemTime = itemTime
        self.item = item
        self.sequenceNumber = sequenceNumber
        self.wallTime = wallTime ?? HostTime.now()
        self.itemSerialNumber = itemSerialNumber
    }

    public static func == (lhs: PlayerEvent, rhs: PlayerEvent) -> Bool {
        lhs.kind == rhs.kind && lhs.hostTime == rhs.hostTime && lhs.itemTime == rhs.itemTime && lhs.item == rhs.item
            && lhs.sequenceNumber == rhs.sequenceNumber
    }

    private static let sequence = Atomic<UInt64>(0)

    /// A new number in the sequence players' events are numbered in (``sequenceNumber``): for something else that
    /// happens (a Picture in Picture controller's event, say) to be merged with players' events in order.
    public static func makeSequenceNumber() -> UInt64 {
        sequence.add(1, ordering: .relaxed).newValue
    }
}

/// Where a seek came from.
public enum SeekOrigin: String, Sendable, Equatable {
    /// The app called `seek(to:)`.
    case api
    /// A skip button in the Picture in Picture window.
    case pictureInPictureSkip
    /// Scrubbing (a series of seeks from a slider).
    case scrubbing
}
