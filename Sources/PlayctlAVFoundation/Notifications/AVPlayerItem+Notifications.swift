// swift-format-ignore-file: AlwaysUseLowerCamelCase
// AVFoundation's notification names and user-info keys, under their own spellings.

extension Notification.Name {
    /// The item played to its end (object: the `AVPlayerItem`).
    public static let AVPlayerItemDidPlayToEndTime = Notification.Name("AVPlayerItemDidPlayToEndTimeNotification")
    /// The item could not play to its end (object: the item; user info: ``AVPlayerItemFailedToPlayToEndTimeErrorKey``).
    public static let AVPlayerItemFailedToPlayToEndTime = Notification.Name(
        "AVPlayerItemFailedToPlayToEndTimeNotification")
    /// Media did not arrive in time to go on playing (object: the item).
    public static let AVPlayerItemPlaybackStalled = Notification.Name("AVPlayerItemPlaybackStalledNotification")
    /// The item's time changed discontinuously: a seek landed (object: the item).
    public static let AVPlayerItemTimeJumped = Notification.Name("AVPlayerItemTimeJumpedNotification")
    /// An event was added to (or updated in) the item's access log (object: the item; posted on no particular
    /// thread).
    public static let AVPlayerItemNewAccessLogEntry = Notification.Name("AVPlayerItemNewAccessLogEntryNotification")
    /// An event was added to the item's error log (object: the item).
    public static let AVPlayerItemNewErrorLogEntry = Notification.Name("AVPlayerItemNewErrorLogEntryNotification")
}

/// The user-info key of the `NSError` of ``Foundation/NSNotification/Name/AVPlayerItemFailedToPlayToEndTime``.
public let AVPlayerItemFailedToPlayToEndTimeErrorKey = "AVPlayerItemFailedToPlayToEndTimeErrorKey"

extension AVPlayerItem {
    /// `.AVPlayerItemDidPlayToEndTime`.
    public static let didPlayToEndTimeNotification = Notification.Name.AVPlayerItemDidPlayToEndTime
    /// `.AVPlayerItemFailedToPlayToEndTime`.
    public static let failedToPlayToEndTimeNotification = Notification.Name.AVPlayerItemFailedToPlayToEndTime
    /// `.AVPlayerItemPlaybackStalled`.
    public static let playbackStalledNotification = Notification.Name.AVPlayerItemPlaybackStalled
    /// `.AVPlayerItemTimeJumped`.
    public static let timeJumpedNotification = Notification.Name.AVPlayerItemTimeJumped
    /// `.AVPlayerItemNewAccessLogEntry`.
    public static let newAccessLogEntryNotification = Notification.Name.AVPlayerItemNewAccessLogEntry
    /// `.AVPlayerItemNewErrorLogEntry`.
    public static let newErrorLogEntryNotification = Notification.Name.AVPlayerItemNewErrorLogEntry
    /// ``AVPlayerItemFailedToPlayToEndTimeErrorKey``.
    public static let failedToPlayToEndTimeErrorKey = AVPlayerItemFailedToPlayToEndTimeErrorKey
}

/// The error domain of AVFoundation's errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// AVFoundation's error codes, as `AVError` (the few this module reports).
public struct AVError: Error, Sendable, Hashable {
    /// The codes.
    public enum Code: Int, Sendable, Hashable {
        /// An unknown error (what the engine's failures are reported as; the description says what happened).
        case unknown = -11_800
        /// The media could not be opened: not a media file, or missing.
        case fileFormatNotRecognized = -11_828
        /// The operation was cancelled.
        case operationCancelled = -11_878
    }

    /// The code.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code) { self.code = code }
}

/// Keys playctl adds to the user info of the notifications it posts (AVFoundation's keys are there too): which
/// player posted it, and when, for traces.
public enum PlayctlNotificationKeys {
    /// The `AVPlayer` whose item it is about.
    public static let player = "PlayctlPlayer"
    /// The player's clock time in seconds (`Double`) when it happened.
    public static let hostTime = "PlayctlHostTime"
    /// The item's time (`CMTime`) when it happened.
    public static let itemTime = "PlayctlItemTime"
}
