import Playback

/// Everything a ``PictureInPictureController`` reports, in order, on its event stream
/// (``PictureInPictureController/events(bufferLimit:)``).
///
/// Every delegate callback has a case here, delivered on the controller's callback executor right before the
/// delegate is called, so the stream and the delegate see one order. The other cases mirror what AVKit apps
/// observe with key-value observation (`isPictureInPicturePossible`, `isPictureInPictureSuspended`) and what the
/// system's floating window shows (the content source and its playback state).
///
/// Session events follow the grammar of ``PictureInPictureEvent``:
/// `willStart (failedToStart | didStart [suspended…] [restoreUserInterface] willStop didStop)`, with
/// `restoreUserInterface` after `willStop` on ``HostProfile/macOS``.
public enum PictureInPictureControllerEvent: Sendable, Hashable, CustomStringConvertible {
    /// `isPictureInPicturePossible` changed to this value.
    case possible(Bool)
    /// A session is starting (`pictureInPictureControllerWillStartPictureInPicture`).
    case willStart
    /// The window is open (`pictureInPictureControllerDidStartPictureInPicture`).
    case didStart
    /// Picture in Picture could not start; the error names what was missing.
    case failedToStart(PictureInPictureError)
    /// The user asked to return to the app; the delegate got a completion handler to call.
    case restoreUserInterface
    /// The session is about to stop.
    case willStop
    /// The window has closed; the session is over.
    case didStop
    /// The content shown changed: `mode` ``ContentSwapMode/source`` when the app assigned a new
    /// ``ContentSource``, ``ContentSwapMode/item`` when the source's player moved to another item.
    /// `item` is the file name of the item now shown (nil for none, or for a sample-buffer source).
    case contentSource(item: String?, mode: ContentSwapMode)
    /// The system's playback-state object changed: the item, its duration, the time control status, or a jump
    /// of the elapsed time. `stateID` is the object's identity, the same for a whole session, across swaps.
    case playbackState(
        stateID: UInt64, contentDuration: MediaTime, elapsed: MediaTime,
        timeControlStatus: TimeControlStatus)
    /// `isPictureInPictureSuspended` changed to this value (another app's Picture in Picture came or went).
    case suspended(Bool)
    /// The system ends the session on its own, for this reason; `willStop` and `didStop` follow.
    case stoppedBySystem(SystemStopReason)

    /// The event for a playback-state snapshot.
    public static func playbackState(_ snapshot: PlaybackStateSnapshot) -> PictureInPictureControllerEvent {
        .playbackState(
            stateID: snapshot.stateID, contentDuration: snapshot.contentDuration,
            elapsed: snapshot.elapsed, timeControlStatus: snapshot.timeControlStatus)
    }

    /// The case name (`"willStart"`, `"playbackState"`, …): what the CLI prints as the event type.
    public var name: String {
        switch self {
        case .possible: return "possible"
        case .willStart: return "willStart"
        case .didStart: return "didStart"
        case .failedToStart: return "failedToStart"
        case .restoreUserInterface: return "restoreUserInterface"
        case .willStop: return "willStop"
        case .didStop: return "didStop"
        case .contentSource: return "contentSource"
        case .playbackState: return "playbackState"
        case .suspended: return "suspended"
        case .stoppedBySystem: return "stoppedBySystem"
        }
    }

    /// A one-line rendering, for logs and test failures.
    public var description: String {
        switch self {
        case .possible(let value), .suspended(let value): return "\(name)(\(value))"
        case .stoppedBySystem(let reason): return "\(name)(\(reason.rawValue))"
        case .failedToStart(let error): return "failedToStart(\(error))"
        case .contentSource(let item, let mode): return "contentSource(\(item ?? "nil"), \(mode.rawValue))"
        case .playbackState(let id, let duration, let elapsed, let status):
            return "playbackState(#\(id), duration \(duration.seconds), elapsed \(elapsed.seconds), \(status))"
        default: return name
        }
    }
}

/// The system's view of what Picture in Picture is playing, at one moment
/// (see ``PictureInPicturePlaybackState``).
public struct PlaybackStateSnapshot: Sendable, Hashable {
    /// The identity of the playback-state object: one per session, unchanged by swaps.
    public var stateID: UInt64
    /// The file name of the item shown (nil for none, or for a sample-buffer source).
    public var itemName: String?
    /// The content's duration; `.indefinite` until known.
    public var contentDuration: MediaTime
    /// How far into the content playback is.
    public var elapsed: MediaTime
    /// Whether the content plays, waits, or is paused.
    public var timeControlStatus: TimeControlStatus

    /// Creates a snapshot.
    public init(
        stateID: UInt64, itemName: String?, contentDuration: MediaTime, elapsed: MediaTime,
        timeControlStatus: TimeControlStatus
    ) {
        self.stateID = stateID
        self.itemName = itemName
        self.contentDuration = contentDuration
        self.elapsed = elapsed
        self.timeControlStatus = timeControlStatus
    }

    /// `true` when the content is paused (the play/pause button shows "play").
    public var isPaused: Bool { timeControlStatus == .paused }
}

/// What became of a skip asked for from the Picture in Picture window.
public enum PictureInPictureSkipOutcome: Sendable, Hashable {
    /// The skip was not performed: the window is hidden or closing, linear playback is required, or the
    /// interval was zero. No seek was asked for.
    case refused
    /// The skip's seek completed (exactly once); `finished` is false when it was superseded or cancelled.
    case completed(SkipRequestID, finished: Bool)
}
