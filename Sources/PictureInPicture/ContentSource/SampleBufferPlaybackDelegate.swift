import Playback

/// How an app that renders frames itself (a sample-buffer ``ContentSource``) lets the Picture in Picture window
/// control its playback, like `AVPictureInPictureSampleBufferPlaybackDelegate`.
///
/// Every method is called on the controller's callback executor (see ``PictureInPictureControllerDelegate``).
/// The system caches what ``pictureInPictureControllerTimeRangeForPlayback(_:)`` and
/// ``pictureInPictureControllerIsPlaybackPaused(_:)`` answer: it asks again when the source is assigned, after
/// each play/pause and skip from the window, and whenever the app calls
/// ``PictureInPictureController/invalidatePlaybackState()``, which the app must do whenever its playback changes
/// on its own.
public protocol SampleBufferPlaybackDelegate: AnyObject, Sendable {
    /// The user pressed play (`true`) or pause (`false`) in the window. Start or stop playback, then the system
    /// reads the state again.
    func pictureInPictureController(_ controller: PictureInPictureController, setPlaying playing: Bool)

    /// The range of content that can be played: its start and its duration.
    func pictureInPictureControllerTimeRangeForPlayback(_ controller: PictureInPictureController) -> TimeRange

    /// Whether playback is paused.
    func pictureInPictureControllerIsPlaybackPaused(_ controller: PictureInPictureController) -> Bool

    /// The window changed size; content may be rendered at `newRenderSize` to save work.
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        didTransitionToRenderSize newRenderSize: RenderSize)

    /// The user skipped by `interval` (negative: back). Move playback, then call `completionHandler` exactly once;
    /// the skip counts as completed at that call, and further calls are ignored.
    func pictureInPictureController(
        _ controller: PictureInPictureController, skipByInterval interval: MediaTime,
        completion completionHandler: @escaping @Sendable () -> Void)
}

/// A size in pixels: of the Picture in Picture window, or of the frames it shows.
public struct RenderSize: Sendable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `"640x360"`.
    public var description: String { "\(width)x\(height)" }
}
