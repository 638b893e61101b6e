import Playback

/// A kind of media an option offers, as AVFoundation's `AVMediaCharacteristic` (its raw values are Apple's).
public struct AVMediaCharacteristic: RawRepresentable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sound: audio tracks.
    public static let audible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicAudible")
    /// Text to read: subtitle tracks, sidecar subtitle files, HLS subtitle renditions.
    public static let legible = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicLegible")
    /// Pictures: video tracks (never a selection group here: an item plays its one video).
    public static let visual = AVMediaCharacteristic(rawValue: "AVMediaCharacteristicVisual")
    /// Subtitles meant to be shown even with subtitles off (signs, foreign dialogue): a forced track.
    public static let containsOnlyForcedSubtitles = AVMediaCharacteristic(
        rawValue: "AVMediaCharacteristicContainsOnlyForcedSubtitles")

    /// The engine's characteristic, for the two that have selection groups.
    var engine: MediaCharacteristic? {
        switch self {
        case .audible: return .audible
        case .legible: return .legible
        default: return nil
        }
    }

    init(_ engine: MediaCharacteristic) {
        switch engine {
        case .audible: self = .audible
        case .legible: self = .legible
        }
    }
}
