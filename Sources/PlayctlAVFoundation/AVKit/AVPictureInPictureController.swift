import Locking
import PictureInPicture
import Playback

/// Picture in Picture for one content source, as AVKit's `AVPictureInPictureController`, over a playctl
/// `PictureInPictureController` hosted by the simulated system of ``PlayctlAVFoundation/current`` (its
/// preconditions are the iOS ones: support, an active `.playback` audio session (``AVAudioSession``), the
/// background-audio capability, a source ready for display).
///
/// Delegate calls arrive on the main queue. Key-value observable: `isPictureInPicturePossible`,
/// `isPictureInPictureActive`, `isPictureInPictureSuspended` (reported on the controller's callback thread),
/// `contentSource`, `canStartPictureInPictureAutomaticallyFromInline`, `requiresLinearPlayback`.
open class AVPictureInPictureController: NSObject, PlayctlKeyValueObserving, @unchecked Sendable {
    /// The engine's controller.
    public let playctlController: PictureInPictureController
    /// This controller's key-value observations.
    public let keyValueObservers = KeyValueObservers()
    private let source: Locked<ContentSource>
    private let weakDelegate = Locked(WeakDelegate())
    private let relay: DelegateRelay
    private let observed: Locked<Observed>

    struct WeakDelegate {
        weak var value: AVPictureInPictureControllerDelegate?
    }

    struct Observed {
        var isPossible: Bool
        var isActive = false
        var isSuspended = false
        /// Sequence numbers drawn as events were produced, taken as they are delivered (same events, same order).
        var stamps: [UInt64] = []
    }

    /// Whether the device offers Picture in Picture (the simulated system of ``PlayctlAVFoundation/current``).
    public class func isPictureInPictureSupported() -> Bool {
        PlayctlAVFoundation.current.pictureInPictureSystem.isPictureInPictureSupported
    }

    /// A controller for `playerLayer`; nil when Picture in Picture is not supported.
    public convenience init?(playerLayer: AVPlayerLayer) {
        guard Self.isPictureInPictureSupported() else { return nil }
        self.init(contentSource: ContentSource(playerLayer: playerLayer))
    }

    /// A controller for `contentSource`.
    public init(contentSource: ContentSource) {
        let system = PlayctlAVFoundation.current.pictureInPictureSystem
        let controller = PictureInPictureController(contentSource: contentSource.playctlSource, system: system)
        playctlController = controller
        source = Locked(contentSource)
        relay = DelegateRelay(waits: system.clock.waitsForCallbacks)
        observed = Locked(Observed(isPossible: controller.isPictureInPicturePossible))
        super.init()
        relay.controller.withLock { $0.value = self }
        contentSource.attach(to: self)
        controller.delegate = relay
        controller.observeEventsAsProduced { [observed] _ in
            let stamp = PlayerEvent.makeSequenceNumber()
            observed.withLock { $0.stamps.append(stamp) }
        }
        controller.observeEvents { [weak self] event in self?.handle(event) }
    }

    deinit { playctlController.invalidate() }

    /// Told about the session (held weakly); called on the main queue.
    public weak var delegate: AVPictureInPictureControllerDelegate? {
        get { weakDelegate.withLock { $0.value } }
        set { weakDelegate.withLock { $0.value = newValue } }
    }

    /// What Picture in Picture shows. A new source keeps a running session if it is ready for display, and stops it
    /// otherwise (as AVKit documents).
    public var contentSource: ContentSource? {
        get { source.withLock { $0 } }
        set {
            guard let newValue else { return }
            source.withLock { $0 = newValue }
            newValue.attach(to: self)
            playctlController.contentSource = newValue.playctlSource
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// The player layer of a player-layer source; with a sample-buffer source (Apple's property is not optional), a
    /// layer of the controller's own that shows no player.
    public var playerLayer: AVPlayerLayer {
        if let layer = contentSource?.playerLayer { return layer }
        return unusedLayer.withLock { layer in
            let made = layer ?? AVPlayerLayer()
            layer = made
            return made
        }
    }
    private let unusedLayer = Locked<AVPlayerLayer?>(nil)

    /// Whether a start would succeed now.
    public var isPictureInPicturePossible: Bool {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.isPossible } }
        return playctlController.isPictureInPicturePossible
    }

    /// True from `didStart` to `didStop`.
    public var isPictureInPictureActive: Bool {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.isActive } }
        return playctlController.isPictureInPictureActive
    }

    /// True while another app's Picture in Picture hides the window.
    public var isPictureInPictureSuspended: Bool {
        if KeyValueSnapshot.isReading { return observed.withLock { $0.isSuspended } }
        return playctlController.isPictureInPictureSuspended
    }

    /// Whether Picture in Picture starts by itself when the app goes to the background while the content plays.
    public var canStartPictureInPictureAutomaticallyFromInline: Bool {
        get { playctlController.canStartPictureInPictureAutomaticallyFromInline }
        set {
            playctlController.canStartPictureInPictureAutomaticallyFromInline = newValue
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// When true, the window offers no skipping.
    public var requiresLinearPlayback: Bool {
        get { playctlController.requiresLinearPlayback }
        set {
            playctlController.requiresLinearPlayback = newValue
            keyValueObservers.changed(sequence: nil)
        }
    }

    /// Asks to start: `willStart` then `didStart`, or `failedToStart` naming the unmet precondition. A call while a
    /// session runs or starts is ignored, as on iOS.
    public func startPictureInPicture() { try? playctlController.startPictureInPicture() }

    /// Asks to stop (`willStop`, `didStop`).
    public func stopPictureInPicture() { playctlController.stopPictureInPicture() }

    /// Tells the system a sample-buffer source's playback changed.
    public func invalidatePlaybackState() { playctlController.invalidatePlaybackState() }

    private func handle(_ event: PictureInPictureControllerEvent) {
        let stamp = observed.withLock { observed -> UInt64? in
            switch event {
            case .possible(let value): observed.isPossible = value
            case .didStart: observed.isActive = true
            case .didStop: observed.isActive = false
            case .suspended(let value): observed.isSuspended = value
            default: break
            }
            return observed.stamps.isEmpty ? nil : observed.stamps.removeFirst()
        }
        keyValueObservers.changed(sequence: stamp)
    }
}

/// Relays the engine controller's delegate calls to the app's delegate, on the main queue.
final class DelegateRelay: PictureInPictureControllerDelegate, @unchecked Sendable {
    let controller = Locked(WeakController())
    private let waits: Bool

    struct WeakController {
        weak var value: AVPictureInPictureController?
    }

    init(waits: Bool) { self.waits = waits }

    private func deliver(_ body: @escaping @Sendable (AVPictureInPictureController) -> Void) {
        guard let controller = controller.withLock({ $0.value }) else { return }
        QueueDelivery(.main, waits: waits).run { body(controller) }
    }

    func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {
        deliver { $0.delegate?.pictureInPictureControllerWillStartPictureInPicture($0) }
    }

    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {
        deliver { $0.delegate?.pictureInPictureControllerDidStartPictureInPicture($0) }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, failedToStartPictureInPictureWithError error: PictureInPictureError
    ) {
        let nsError = NSError(
            domain: AVKitErrorDomain, code: AVKitError.Code.pictureInPictureStartFailed.rawValue,
            userInfo: [NSLocalizedDescriptionKey: error.description])
        deliver { $0.delegate?.pictureInPictureController($0, failedToStartPictureInPictureWithError: nsError) }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool) -> Void
    ) {
        deliver { controller in
            guard let delegate = controller.delegate else { return completionHandler(true) }
            delegate.pictureInPictureController(
                controller, restoreUserInterfaceForPictureInPictureStopWithCompletionHandler: completionHandler)
        }
    }

    func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {
        deliver { $0.delegate?.pictureInPictureControllerWillStopPictureInPicture($0) }
    }

    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {
        deliver { $0.delegate?.pictureInPictureControllerDidStopPictureInPicture($0) }
    }
}

/// The error domain of AVKit's errors.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let AVKitErrorDomain = "AVKitErrorDomain"

/// AVKit's error codes, as `AVKitError`.
public struct AVKitError: Error, Sendable, Hashable {
    /// The codes.
    public enum Code: Int, Sendable, Hashable {
        /// Unknown.
        case unknown = -1000
        /// Picture in Picture could not start.
        case pictureInPictureStartFailed = -1001
    }

    /// The code.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code) { self.code = code }
}
