import Locking
import Playback

/// What Picture in Picture shows, like `AVPictureInPictureController.ContentSource`: either a player's layer, or
/// a layer the app fills with frames itself together with a delegate that controls its playback.
///
/// A source may be assigned to a controller at any time (``PictureInPictureController/contentSource``); the
/// window then shows the new source's frames. All members may be used from any thread.
public final class ContentSource: Sendable, CustomStringConvertible {
    /// The two kinds of content.
    public enum Kind: Sendable {
        /// A player's layer: the window shows the layer's frames and controls the layer's player.
        case playerLayer(PlayerLayer)
        /// An app-rendered layer; the window controls playback through the delegate (held weakly).
        case sampleBuffer(SampleBufferDisplayLayer)
    }

    /// What the source shows.
    public let kind: Kind
    private struct WeakDelegate: Sendable {
        weak var value: (any SampleBufferPlaybackDelegate)?
    }
    private let delegate: Locked<WeakDelegate>
    private struct Relay {
        var nextToken: UInt64 = 0
        var listeners: [UInt64: @Sendable (VideoFrame) -> Void] = [:]
        /// What the sample-buffer delegate last answered (range, paused).
        var sampleBufferState: (range: TimeRange, paused: Bool)?
    }
    private let relay = Locked(Relay())

    /// A source showing `playerLayer` and controlling its player.
    public init(playerLayer: PlayerLayer) {
        kind = .playerLayer(playerLayer)
        delegate = Locked(WeakDelegate(value: nil))
        playerLayer.onFrame { [weak self] frame in self?.forward(frame) }
    }

    /// A source showing `sampleBufferDisplayLayer`, whose playback `playbackDelegate` controls (held weakly).
    public init(
        sampleBufferDisplayLayer: SampleBufferDisplayLayer,
        playbackDelegate: any SampleBufferPlaybackDelegate
    ) {
        kind = .sampleBuffer(sampleBufferDisplayLayer)
        delegate = Locked(WeakDelegate(value: playbackDelegate))
        sampleBufferDisplayLayer.onFrame { [weak self] frame in self?.forward(frame) }
    }

    /// The player layer, for a player-layer source.
    public var playerLayer: PlayerLayer? {
        if case .playerLayer(let layer) = kind { return layer }
        return nil
    }

    /// The display layer, for a sample-buffer source.
    public var sampleBufferDisplayLayer: SampleBufferDisplayLayer? {
        if case .sampleBuffer(let layer) = kind { return layer }
        return nil
    }

    /// The playback delegate, for a sample-buffer source (nil once released).
    public var sampleBufferPlaybackDelegate: (any SampleBufferPlaybackDelegate)? {
        delegate.withLock { $0.value }
    }

    /// The player whose frames a player-layer source shows.
    public var player: Player? { playerLayer?.player }

    /// Whether the source has a frame to show (`isReadyForDisplay` of its layer). Picture in Picture cannot
    /// start without one, and assigning a source without one stops a running session.
    public var isReadyForDisplay: Bool {
        switch kind {
        case .playerLayer(let layer): return layer.isReadyForDisplay
        case .sampleBuffer(let layer): return layer.isReadyForDisplay
        }
    }

    /// The frame on display.
    public var currentFrame: VideoFrame? {
        switch kind {
        case .playerLayer(let layer): return layer.currentFrame
        case .sampleBuffer(let layer): return layer.currentFrame
        }
    }

    /// `"playerLayer(a.mp4)"` or `"sampleBuffer"`. Reads the player: not for use inside a frame callback.
    public var description: String {
        switch kind {
        case .playerLayer: return "playerLayer(\(player?.currentItem?.name ?? "no item"))"
        case .sampleBuffer: return "sampleBuffer"
        }
    }

    // MARK: Frame relay (the layer's callbacks cannot be removed, so the source registers once and fans out)

    /// Calls `listener` with every frame the source's layer shows, where the layer reports it (for a player
    /// layer, the player's callback executor, with no lock of the player held; for a sample-buffer layer, the
    /// thread that enqueues the frame). Returns a token for ``removeFrameListener(_:)``.
    func addFrameListener(_ listener: @escaping @Sendable (VideoFrame) -> Void) -> UInt64 {
        relay.withLock { r in
            r.nextToken += 1
            r.listeners[r.nextToken] = listener
            return r.nextToken
        }
    }

    func removeFrameListener(_ token: UInt64) {
        _ = relay.withLock { $0.listeners.removeValue(forKey: token) }
    }

    private func forward(_ frame: VideoFrame) {
        let listeners = relay.withLock { r in r.listeners.sorted { $0.key < $1.key }.map(\.value) }
        for listener in listeners { listener(frame) }
    }

    /// The sample-buffer delegate's last answers; nil before the first query.
    var sampleBufferState: (range: TimeRange, paused: Bool)? {
        get { relay.withLock { $0.sampleBufferState } }
        set { relay.withLock { $0.sampleBufferState = newValue } }
    }
}
