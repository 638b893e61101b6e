import Locking
import Playback
import Synchronization

/// The system's playback-state object for one Picture in Picture session: what the window's controls show
/// (duration, elapsed time, play/pause), like the playback state iOS keeps for the Picture in Picture window.
///
/// There is exactly one per session: its ``stateID`` stays the same from `didStart` to `didStop`, across item
/// replacements and content-source swaps, which only change what it describes. Its properties read the content
/// live; the system reports discrete changes on the controller's stream as
/// ``PictureInPictureControllerEvent/playbackState(stateID:contentDuration:elapsed:timeControlStatus:)``.
public final class PictureInPicturePlaybackState: Sendable {
    private static let counter = Atomic<UInt64>(0)

    /// The object's identity: unique in the process, the same for the whole session.
    public let stateID: UInt64

    private struct Fingerprint: Equatable {
        var generation: UInt64
        var item: ObjectIdentifier?
        var duration: MediaTime
        var status: TimeControlStatus
    }

    private struct State {
        var source: ContentSource
        var generation: UInt64
        var published: Fingerprint?
        var observed: (elapsed: MediaTime, at: Double, playing: Bool)?
    }

    private let state: Locked<State>

    init(source: ContentSource, generation: UInt64) {
        stateID = Self.counter.add(1, ordering: .relaxed).newValue
        state = Locked(State(source: source, generation: generation))
    }

    /// The content source it describes.
    public var contentSource: ContentSource { state.withLock { $0.source } }

    /// What the content is doing now; nil for a sample-buffer source whose delegate has not been asked yet.
    /// Reads the player: not for use inside a frame callback.
    public func snapshot() -> PlaybackStateSnapshot? {
        read(contentSource)?.snapshot
    }

    /// The content's duration (`.indefinite` until known).
    public var contentDuration: MediaTime { snapshot()?.contentDuration ?? .indefinite }
    /// How far into the content playback is.
    public var elapsed: MediaTime { snapshot()?.elapsed ?? .zero }
    /// Whether the content plays, waits or is paused.
    public var timeControlStatus: TimeControlStatus { snapshot()?.timeControlStatus ?? .paused }
    /// Whether the window's play/pause button shows "play".
    public var isPaused: Bool { timeControlStatus == .paused }
    /// The file name of the item shown.
    public var itemName: String? { snapshot()?.itemName }

    /// Describes `source` from now on (a content-source swap).
    func attach(_ source: ContentSource, generation: UInt64) {
        state.withLock { s in
            s.source = source
            s.generation = generation
        }
    }

    /// The events a refresh at clock time `now` reports: an item change of the same source
    /// (`contentSource(item, .item)`), then `playbackState` when the item, duration, status or source changed,
    /// when the elapsed time jumped (by more than a quarter second from where playback would be), or when
    /// `force` is set.
    func changes(at now: Double, force: Bool) -> [PictureInPictureControllerEvent] {
        state.withLock { s in
            guard let (snapshot, item) = read(s.source) else { return [] }
            let print = Fingerprint(
                generation: s.generation, item: item, duration: snapshot.contentDuration,
                status: snapshot.timeControlStatus)
            var events: [PictureInPictureControllerEvent] = []
            let sameSource = s.published?.generation == s.generation
            if sameSource, s.published?.item != item {
                events.append(.contentSource(item: snapshot.itemName, mode: .item))
            }
            var jumped = false
            if let o = s.observed, sameSource, s.published?.item == item {
                let expected = o.elapsed.seconds + (o.playing ? now - o.at : 0)
                jumped = abs(snapshot.elapsed.seconds - expected) > 0.25
            }
            if force || jumped || print != s.published {
                events.append(.playbackState(snapshot))
                s.published = print
            }
            s.observed = (snapshot.elapsed, now, snapshot.timeControlStatus == .playing)
            return events
        }
    }

    private func read(_ source: ContentSource) -> (snapshot: PlaybackStateSnapshot, item: ObjectIdentifier?)? {
        switch source.kind {
        case .playerLayer(let layer):
            guard let player = layer.player else {
                return (
                    PlaybackStateSnapshot(
                        stateID: stateID, itemName: nil, contentDuration: .indefinite,
                        elapsed: .zero, timeControlStatus: .paused), nil
                )
            }
            let item = player.currentItem
            let snapshot = PlaybackStateSnapshot(
                stateID: stateID, itemName: item?.name, contentDuration: item?.duration ?? .indefinite,
                elapsed: player.currentTime(), timeControlStatus: player.timeControlStatus)
            return (snapshot, item.map(ObjectIdentifier.init))
        case .sampleBuffer(let layer):
            guard let (range, paused) = source.sampleBufferState else { return nil }
            var elapsed = (layer.currentFrame?.time ?? range.start) - range.start
            if elapsed < .zero { elapsed = .zero }
            if range.duration.isNumeric, elapsed > range.duration { elapsed = range.duration }
            let snapshot = PlaybackStateSnapshot(
                stateID: stateID, itemName: nil, contentDuration: range.duration,
                elapsed: elapsed, timeControlStatus: paused ? .paused : .playing)
            return (snapshot, nil)
        }
    }
}
