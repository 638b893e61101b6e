import Locking
import Playback

/// How a layer fits its picture, as `AVLayerVideoGravity`.
public struct AVLayerVideoGravity: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Fit inside, keeping the aspect ratio (the default).
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// Fill, keeping the aspect ratio (cropping).
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
    /// Fill, stretching.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
}

/// Where a player's pictures are shown, as `AVPlayerLayer`, over a playctl `PlayerLayer`: a plain object, not a
/// `CALayer` (there is no view hierarchy on Linux), that shows its player's frames and says when it has shown one.
/// Picture in Picture takes its content from it. Key-value observable: `isReadyForDisplay`, `player`,
/// `videoGravity`.
open class AVPlayerLayer: NSObject, PlayctlKeyValueObserving, @unchecked Sendable {
    /// The engine's layer.
    public let playctlLayer: PlayerLayer
    /// This layer's key-value observations.
    public let keyValueObservers = KeyValueObservers()
    private let state = Locked((player: AVPlayer?.none, gravity: AVLayerVideoGravity.resizeAspect))

    /// A layer showing nothing.
    public override convenience init() { self.init(player: nil) }

    /// A layer showing `player`'s frames.
    public init(player: AVPlayer?) {
        playctlLayer = PlayerLayer(player: player?.playctlPlayer)
        super.init()
        state.withLock { $0.player = player }
        playctlLayer.onFrame { [weak self] _ in self?.frameShown() }
    }

    /// The player whose frames the layer shows (held strongly). Changing it resets ``isReadyForDisplay``.
    public var player: AVPlayer? {
        get { state.withLock { $0.player } }
        set {
            state.withLock { $0.player = newValue }
            playctlLayer.player = newValue?.playctlPlayer
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// True once the layer has shown a frame of its player.
    public var isReadyForDisplay: Bool { playctlLayer.isReadyForDisplay }

    /// How the picture fits the layer (kept: nothing is drawn).
    public var videoGravity: AVLayerVideoGravity {
        get { state.withLock { $0.gravity } }
        set {
            state.withLock { $0.gravity = newValue }
            keyValueObservers.changed(sequence: nil)
        }
    }

    private func frameShown() {
        guard !keyValueObservers.isEmpty else { return }
        keyValueObservers.changed(sequence: nil)
    }
}
