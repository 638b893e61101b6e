import Locking

/// What an ``AVPlayerViewController`` tells the app of Picture in Picture, as AVKit's
/// `AVPlayerViewControllerDelegate` (its Picture in Picture methods; every one optional: the extension's defaults do
/// nothing, and a restore completes with `true`). Calls arrive on the main queue, in order.
public protocol AVPlayerViewControllerDelegate: AnyObject {
    func playerViewControllerWillStartPictureInPicture(_ playerViewController: AVPlayerViewController)
    func playerViewControllerDidStartPictureInPicture(_ playerViewController: AVPlayerViewController)
    func playerViewController(
        _ playerViewController: AVPlayerViewController, failedToStartPictureInPictureWithError error: Error)
    func playerViewControllerWillStopPictureInPicture(_ playerViewController: AVPlayerViewController)
    func playerViewControllerDidStopPictureInPicture(_ playerViewController: AVPlayerViewController)
    func playerViewControllerShouldAutomaticallyDismissAtPictureInPictureStart(
        _ playerViewController: AVPlayerViewController
    ) -> Bool
    func playerViewController(
        _ playerViewController: AVPlayerViewController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void)
}

extension AVPlayerViewControllerDelegate {
    public func playerViewControllerWillStartPictureInPicture(_ playerViewController: AVPlayerViewController) {}
    public func playerViewControllerDidStartPictureInPicture(_ playerViewController: AVPlayerViewController) {}
    public func playerViewController(
        _ playerViewController: AVPlayerViewController, failedToStartPictureInPictureWithError error: Error
    ) {}
    public func playerViewControllerWillStopPictureInPicture(_ playerViewController: AVPlayerViewController) {}
    public func playerViewControllerDidStopPictureInPicture(_ playerViewController: AVPlayerViewController) {}
    public func playerViewControllerShouldAutomaticallyDismissAtPictureInPictureStart(
        _ playerViewController: AVPlayerViewController
    ) -> Bool { true }
    public func playerViewController(
        _ playerViewController: AVPlayerViewController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void
    ) {
        completionHandler(true)
    }
}

/// AVKit's player view controller without a view (Linux has no UIKit): its player shown in an ``AVPlayerLayer`` of
/// its own (``playctlPlayerLayer``), Picture in Picture for it through an ``AVPictureInPictureController`` of its own
/// (``playctlPictureInPictureController``: the system's button is the simulated system's, or a test's
/// `startPictureInPicture()`), whose delegate calls reach the ``delegate`` as `AVPlayerViewControllerDelegate`'s.
/// The presentation settings (`showsPlaybackControls`, full screen) are kept: nothing is drawn.
open class AVPlayerViewController: NSObject, @unchecked Sendable {
    private struct Settings {
        weak var delegate: AVPlayerViewControllerDelegate?
        var showsPlaybackControls = true
        var entersFullScreenWhenPlaybackBegins = false
        var exitsFullScreenWhenPlaybackEnds = false
        var updatesNowPlayingInfoCenter = true
        var allowsPictureInPicturePlayback = true
    }

    private let settings = Locked(Settings())
    /// The layer the player is shown in.
    public let playctlPlayerLayer = AVPlayerLayer()
    /// Picture in Picture of ``playctlPlayerLayer``; nil where it is not supported.
    public let playctlPictureInPictureController: AVPictureInPictureController?
    private let forwarder = PictureInPictureForwarder()

    public override init() {
        playctlPictureInPictureController = AVPictureInPictureController(playerLayer: playctlPlayerLayer)
        super.init()
        forwarder.owner = self
        playctlPictureInPictureController?.delegate = forwarder
    }

    /// The player shown.
    public var player: AVPlayer? {
        get { playctlPlayerLayer.player }
        set { playctlPlayerLayer.player = newValue }
    }

    /// Told of Picture in Picture (held weakly).
    public weak var delegate: AVPlayerViewControllerDelegate? {
        get { settings.withLock { $0.delegate } }
        set { settings.withLock { $0.delegate = newValue } }
    }

    /// How the picture fits (the layer's).
    public var videoGravity: AVLayerVideoGravity {
        get { playctlPlayerLayer.videoGravity }
        set { playctlPlayerLayer.videoGravity = newValue }
    }

    /// Where the picture lies in the layer (the layer's `videoRect`).
    public var videoBounds: CGRect { playctlPlayerLayer.videoRect }

    /// Whether the first frame was shown (the layer's).
    public var isReadyForDisplay: Bool { playctlPlayerLayer.isReadyForDisplay }

    /// Kept (Picture in Picture is the controller's to start).
    public var allowsPictureInPicturePlayback: Bool {
        get { settings.withLock { $0.allowsPictureInPicturePlayback } }
        set { settings.withLock { $0.allowsPictureInPicturePlayback = newValue } }
    }

    /// Whether Picture in Picture starts by itself when the app goes to the background while playing (the
    /// controller's).
    public var canStartPictureInPictureAutomaticallyFromInline: Bool {
        get { playctlPictureInPictureController?.canStartPictureInPictureAutomaticallyFromInline ?? false }
        set { playctlPictureInPictureController?.canStartPictureInPictureAutomaticallyFromInline = newValue }
    }

    /// Kept: there are no controls to show.
    public var showsPlaybackControls: Bool {
        get { settings.withLock { $0.showsPlaybackControls } }
        set { settings.withLock { $0.showsPlaybackControls = newValue } }
    }

    /// Kept: there is no full screen.
    public var entersFullScreenWhenPlaybackBegins: Bool {
        get { settings.withLock { $0.entersFullScreenWhenPlaybackBegins } }
        set { settings.withLock { $0.entersFullScreenWhenPlaybackBegins = newValue } }
    }

    /// Kept: there is no full screen.
    public var exitsFullScreenWhenPlaybackEnds: Bool {
        get { settings.withLock { $0.exitsFullScreenWhenPlaybackEnds } }
        set { settings.withLock { $0.exitsFullScreenWhenPlaybackEnds = newValue } }
    }

    /// Kept: there is no Now Playing center.
    public var updatesNowPlayingInfoCenter: Bool {
        get { settings.withLock { $0.updatesNowPlayingInfoCenter } }
        set { settings.withLock { $0.updatesNowPlayingInfoCenter = newValue } }
    }
}

/// The player view controller's Picture in Picture delegate: each call to its delegate as the view controller's.
private final class PictureInPictureForwarder: AVPictureInPictureControllerDelegate, @unchecked Sendable {
    weak var owner: AVPlayerViewController?

    private func forward(_ call: (AVPlayerViewControllerDelegate, AVPlayerViewController) -> Void) {
        guard let owner, let delegate = owner.delegate else { return }
        call(delegate, owner)
    }

    func pictureInPictureControllerWillStartPictureInPicture(_ controller: AVPictureInPictureController) {
        forward { $0.playerViewControllerWillStartPictureInPicture($1) }
    }
    func pictureInPictureControllerDidStartPictureInPicture(_ controller: AVPictureInPictureController) {
        forward { $0.playerViewControllerDidStartPictureInPicture($1) }
    }
    func pictureInPictureController(
        _ controller: AVPictureInPictureController, failedToStartPictureInPictureWithError error: Error
    ) {
        forward { $0.playerViewController($1, failedToStartPictureInPictureWithError: error) }
    }
    func pictureInPictureControllerWillStopPictureInPicture(_ controller: AVPictureInPictureController) {
        forward { $0.playerViewControllerWillStopPictureInPicture($1) }
    }
    func pictureInPictureControllerDidStopPictureInPicture(_ controller: AVPictureInPictureController) {
        forward { $0.playerViewControllerDidStopPictureInPicture($1) }
    }
    func pictureInPictureController(
        _ controller: AVPictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void
    ) {
        guard let owner, let delegate = owner.delegate else { return completionHandler(true) }
        delegate.playerViewController(
            owner, restoreUserInterfaceForPictureInPictureStopWithCompletionHandler: completionHandler)
    }
}
