/// What an ``AVPictureInPictureController`` tells the app, as AVKit's `AVPictureInPictureControllerDelegate`, under
/// the same Swift names. Every method is optional (the extension gives defaults: nothing, and a restore completed
/// with `true`). Calls arrive on the main queue, in order; under a manual clock the clock's `advance` returns
/// after them (the main queue must be running: see docs/avfoundation.md).
public protocol AVPictureInPictureControllerDelegate: AnyObject {
    /// Picture in Picture is about to start.
    func pictureInPictureControllerWillStartPictureInPicture(_ pictureInPictureController: AVPictureInPictureController)
    /// Picture in Picture started.
    func pictureInPictureControllerDidStartPictureInPicture(_ pictureInPictureController: AVPictureInPictureController)
    /// Picture in Picture could not start (the `NSError`'s description names the unmet precondition).
    func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController,
        failedToStartPictureInPictureWithError error: Error)
    /// Picture in Picture is about to stop.
    func pictureInPictureControllerWillStopPictureInPicture(_ pictureInPictureController: AVPictureInPictureController)
    /// Picture in Picture stopped.
    func pictureInPictureControllerDidStopPictureInPicture(_ pictureInPictureController: AVPictureInPictureController)
    /// The user asked to go back to the app: restore the player's interface, then call `completionHandler(true)`.
    func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void)
}

extension AVPictureInPictureControllerDelegate {
    /// Does nothing.
    public func pictureInPictureControllerWillStartPictureInPicture(
        _ pictureInPictureController: AVPictureInPictureController
    ) {}
    /// Does nothing.
    public func pictureInPictureControllerDidStartPictureInPicture(
        _ pictureInPictureController: AVPictureInPictureController
    ) {}
    /// Does nothing.
    public func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController,
        failedToStartPictureInPictureWithError error: Error
    ) {}
    /// Does nothing.
    public func pictureInPictureControllerWillStopPictureInPicture(
        _ pictureInPictureController: AVPictureInPictureController
    ) {}
    /// Does nothing.
    public func pictureInPictureControllerDidStopPictureInPicture(
        _ pictureInPictureController: AVPictureInPictureController
    ) {}
    /// Completes with `true` at once.
    public func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler: @escaping (Bool) -> Void
    ) {
        completionHandler(true)
    }
}

/// How an app that renders frames itself lets Picture in Picture control its playback, as AVKit's
/// `AVPictureInPictureSampleBufferPlaybackDelegate`. Calls arrive on the main queue (the controller's thread waits
/// for the answers).
public protocol AVPictureInPictureSampleBufferPlaybackDelegate: AnyObject {
    /// The user pressed play or pause.
    func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController, setPlaying playing: Bool)
    /// The range that can be played (its start and duration).
    func pictureInPictureControllerTimeRangeForPlayback(
        _ pictureInPictureController: AVPictureInPictureController
    ) -> CMTimeRange
    /// Whether playback is paused.
    func pictureInPictureControllerIsPlaybackPaused(_ pictureInPictureController: AVPictureInPictureController) -> Bool
    /// The window changed size.
    func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController,
        didTransitionToRenderSize newRenderSize: CMVideoDimensions)
    /// The user skipped by `skipInterval`: move playback, then call `completionHandler`.
    func pictureInPictureController(
        _ pictureInPictureController: AVPictureInPictureController, skipByInterval skipInterval: CMTime,
        completion completionHandler: @escaping () -> Void)
}

/// A picture size in pixels, as CoreMedia's `CMVideoDimensions`.
public struct CMVideoDimensions: Sendable, Hashable {
    public var width: Int32
    public var height: Int32
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}
