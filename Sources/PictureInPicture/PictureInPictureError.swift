/// Why Picture in Picture could not start, or why a request to the state
/// machine was refused.
///
/// Each case names exactly one missing thing, so a caller can tell the user
/// (or its log) what to fix. Precondition cases are produced by
/// ``PictureInPicturePreconditions/check()`` and delivered through
/// ``PictureInPictureEvent/failedToStart(_:)``; misuse cases are thrown by
/// ``PictureInPictureStateMachine/startRequested(preconditions:)``.
public enum PictureInPictureError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    // MARK: Preconditions, in the order `check()` tests them.

    /// The host (device, OS, or window server) does not offer Picture in Picture at all.
    case notSupported
    /// The audio session's category is not `.playback`; `current` is what it is instead.
    case audioSessionCategoryNotPlayback(current: AudioSession.Category)
    /// The audio session is in the right category but has not been activated.
    case audioSessionInactive
    /// The app does not declare the background-audio capability (`UIBackgroundModes: audio`).
    case backgroundAudioCapabilityMissing
    /// The content source (player layer) has no displayable frame yet (`isReadyForDisplay == false`).
    case contentSourceNotReadyForDisplay

    // MARK: Misuse and lifecycle.

    /// A start was requested while a session is already active (or closing).
    case alreadyActive
    /// A start was requested while a previous start is still waiting for the host to open the window.
    case startInProgress
    /// A start was requested while the session is suspended by another app's Picture in Picture.
    case suspended
    /// A start was requested after ``PictureInPictureStateMachine/controllerReleased()``.
    case controllerReleased
    /// The start was abandoned before the window opened because the app terminated.
    case startCancelled

    // MARK: Host.

    /// The host refused or failed to open the window; the string is the host's reason.
    case systemFailed(String)

    /// A one-line, human-readable explanation naming what is missing.
    public var description: String {
        switch self {
        case .notSupported:
            return "Picture in Picture is not supported by this host"
        case .audioSessionCategoryNotPlayback(let current):
            return "audio session category is \(current.rawValue); Picture in Picture needs playback"
        case .audioSessionInactive:
            return "audio session is not active"
        case .backgroundAudioCapabilityMissing:
            return "the app lacks the background audio capability"
        case .contentSourceNotReadyForDisplay:
            return "the content source is not ready for display"
        case .alreadyActive:
            return "Picture in Picture is already active"
        case .startInProgress:
            return "a Picture in Picture start is already in progress"
        case .suspended:
            return "Picture in Picture is active but suspended by another app"
        case .controllerReleased:
            return "the Picture in Picture controller was released"
        case .startCancelled:
            return "the Picture in Picture start was cancelled before the window opened"
        case .systemFailed(let reason):
            return "the host failed to open the Picture in Picture window: \(reason)"
        }
    }
}
