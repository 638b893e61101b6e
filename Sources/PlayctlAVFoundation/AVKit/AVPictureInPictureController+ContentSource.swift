import Locking
import PictureInPicture
import Playback

extension AVPictureInPictureController {
    /// What Picture in Picture shows, as `AVPictureInPictureController.ContentSource`: a player layer, or a
    /// sample-buffer layer with a playback delegate (held weakly).
    public final class ContentSource: NSObject, @unchecked Sendable {
        /// The player layer, for a player-layer source.
        public let playerLayer: AVPlayerLayer?
        /// The display layer, for a sample-buffer source.
        public let sampleBufferDisplayLayer: AVSampleBufferDisplayLayer?
        /// The engine's source.
        public let playctlSource: PictureInPicture.ContentSource
        private let bridge: SampleBufferBridge?

        /// A source showing `playerLayer`.
        public init(playerLayer: AVPlayerLayer) {
            self.playerLayer = playerLayer
            sampleBufferDisplayLayer = nil
            bridge = nil
            playctlSource = PictureInPicture.ContentSource(playerLayer: playerLayer.playctlLayer)
        }

        /// A source showing `sampleBufferDisplayLayer`, whose playback `playbackDelegate` controls (held weakly).
        public init(
            sampleBufferDisplayLayer: AVSampleBufferDisplayLayer,
            playbackDelegate: AVPictureInPictureSampleBufferPlaybackDelegate
        ) {
            playerLayer = nil
            self.sampleBufferDisplayLayer = sampleBufferDisplayLayer
            let bridge = SampleBufferBridge(delegate: playbackDelegate)
            self.bridge = bridge
            playctlSource = PictureInPicture.ContentSource(
                sampleBufferDisplayLayer: sampleBufferDisplayLayer.playctlLayer, playbackDelegate: bridge)
        }

        /// The playback delegate of a sample-buffer source, while it exists.
        public var sampleBufferPlaybackDelegate: AVPictureInPictureSampleBufferPlaybackDelegate? {
            bridge?.delegate
        }

        /// Tells the bridge which controller to name in delegate calls.
        func attach(to controller: AVPictureInPictureController) {
            bridge?.controller.withLock { $0.value = controller }
        }
    }
}

/// A layer the app fills with frames, as `AVSampleBufferDisplayLayer`, over a playctl `SampleBufferDisplayLayer`.
/// There are no `CMSampleBuffer`s: enqueue the engine's decoded frames through ``playctlLayer`` (or let a player feed
/// it with `playctlLayer.makeVideoSink()`).
public final class AVSampleBufferDisplayLayer: NSObject, @unchecked Sendable {
    /// The engine's layer.
    public let playctlLayer = SampleBufferDisplayLayer()

    /// An empty layer.
    public override init() { super.init() }

    /// Whether a frame is on display.
    public var isReadyForDisplay: Bool { playctlLayer.isReadyForDisplay }

    /// Removes the frame on display.
    public func flush() { playctlLayer.flush() }
}

/// Relays the engine's sample-buffer questions to the app's delegate, on the main queue.
final class SampleBufferBridge: SampleBufferPlaybackDelegate, @unchecked Sendable {
    // The delegate is only called on the main queue; the references are behind locks.
    private let weakDelegate: Locked<Weak>
    let controller = Locked(WeakController())

    struct Weak {
        weak var value: AVPictureInPictureSampleBufferPlaybackDelegate?
    }

    struct WeakController {
        weak var value: AVPictureInPictureController?
    }

    init(delegate: AVPictureInPictureSampleBufferPlaybackDelegate) {
        weakDelegate = Locked(Weak(value: delegate))
    }

    var delegate: AVPictureInPictureSampleBufferPlaybackDelegate? { weakDelegate.withLock { $0.value } }

    /// Runs `body` on the main queue with the app's controller and delegate, waiting for its answer.
    @discardableResult
    private func ask<T: Sendable>(
        _ fallback: T,
        _ body: @escaping @Sendable (AVPictureInPictureController, AVPictureInPictureSampleBufferPlaybackDelegate) -> T
    ) -> T {
        let box = Locked(fallback)
        let work: @Sendable () -> Void = { [self] in
            guard let controller = controller.withLock({ $0.value }), let delegate else { return }
            let answer = body(controller, delegate)
            box.withLock { $0 = answer }
        }
        if Thread.isMainThread { work() } else { DispatchQueue.main.sync(execute: work) }
        return box.withLock { $0 }
    }

    func pictureInPictureController(_ controller: PictureInPictureController, setPlaying playing: Bool) {
        ask(0) { controller, delegate in
            delegate.pictureInPictureController(controller, setPlaying: playing)
            return 0
        }
    }

    func pictureInPictureControllerTimeRangeForPlayback(_ controller: PictureInPictureController) -> TimeRange {
        ask(CMTimeRange.invalid) { controller, delegate in
            delegate.pictureInPictureControllerTimeRangeForPlayback(controller)
        }.timeRange
    }

    func pictureInPictureControllerIsPlaybackPaused(_ controller: PictureInPictureController) -> Bool {
        ask(true) { controller, delegate in delegate.pictureInPictureControllerIsPlaybackPaused(controller) }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, didTransitionToRenderSize newRenderSize: RenderSize
    ) {
        let size = CMVideoDimensions(width: Int32(newRenderSize.width), height: Int32(newRenderSize.height))
        ask(0) { controller, delegate in
            delegate.pictureInPictureController(controller, didTransitionToRenderSize: size)
            return 0
        }
    }

    func pictureInPictureController(
        _ controller: PictureInPictureController, skipByInterval interval: MediaTime,
        completion completionHandler: @escaping @Sendable () -> Void
    ) {
        let called = ask(false) { controller, delegate in
            delegate.pictureInPictureController(
                controller, skipByInterval: CMTime(interval), completion: completionHandler)
            return true
        }
        if !called { completionHandler() }
    }
}
