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
    private let geometry = Locked((frame: CGRect.zero, bounds: CGRect.zero))

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

    /// The layer's rectangle in its superlayer, as `CALayer.frame` (kept: nothing is drawn); setting it sets the
    /// size of ``bounds``.
    public var frame: CGRect {
        get { geometry.withLock { $0.frame } }
        set { geometry.withLock { $0 = (newValue, CGRect(origin: $0.bounds.origin, size: newValue.size)) } }
    }

    /// The layer's own rectangle, as `CALayer.bounds`; setting it sets the size of ``frame``.
    public var bounds: CGRect {
        get { geometry.withLock { $0.bounds } }
        set { geometry.withLock { $0 = (CGRect(origin: $0.frame.origin, size: newValue.size), newValue) } }
    }

    /// Where the picture lies in ``bounds``, as `videoRect`: the current item's presentation size fitted by
    /// ``videoGravity`` (aspect fit centred, aspect fill centred and cropped, or stretched); zero with no picture.
    public var videoRect: CGRect {
        let bounds = self.bounds
        guard let size = player?.currentItem?.presentationSize, size.width > 0, size.height > 0,
            bounds.width > 0, bounds.height > 0
        else { return .zero }
        let gravity = videoGravity
        if gravity == .resize { return bounds }
        let fit = min(bounds.width / size.width, bounds.height / size.height)
        let fill = max(bounds.width / size.width, bounds.height / size.height)
        let scale = gravity == .resizeAspectFill ? fill : fit
        let shown = CGSize(width: size.width * scale, height: size.height * scale)
        return CGRect(
            x: bounds.minX + (bounds.width - shown.width) / 2, y: bounds.minY + (bounds.height - shown.height) / 2,
            width: shown.width, height: shown.height)
    }

    private func frameShown() {
        guard !keyValueObservers.isEmpty else { return }
        keyValueObservers.changed(sequence: nil)
    }
}
