/// Who asked for a stop through ``PictureInPictureStateMachine/stopRequested(by:)``.
public enum StopRequester: String, CaseIterable, Equatable, Hashable, Sendable {
    /// The app called `stopPictureInPicture()`.
    case app
    /// The user closed the window with its close button.
    case user
    /// The system ended Picture in Picture (for example, to free resources).
    case system
}

/// Why a session's window is being closed; carried by
/// ``PictureInPictureAction/closeWindow(_:_:)``.
public enum StopReason: Equatable, Hashable, Sendable {
    /// ``PictureInPictureStateMachine/stopRequested(by:)``.
    case requested(by: StopRequester)
    /// The restore flow finished (completed, declined, or timed out).
    case restore
    /// The content source was replaced by one that is not ready for display.
    case contentSourceNotReady
    /// The controller was released.
    case controllerReleased
    /// The app returned to the foreground before an automatic start had finished opening.
    case returnedToForeground
    /// The app is terminating; the host must drop the window at once, without animation.
    case appTerminated
}
