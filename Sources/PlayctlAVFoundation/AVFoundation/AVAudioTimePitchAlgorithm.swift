import Playback

/// How an item's audio plays at rates other than 1, as AVFoundation's `AVAudioTimePitchAlgorithm`.
public struct AVAudioTimePitchAlgorithm: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The pitch kept (time-stretching); the default on iOS.
    public static let timeDomain = AVAudioTimePitchAlgorithm(rawValue: "TimeDomain")
    /// The pitch kept (here the same time-stretching as `timeDomain`).
    public static let spectral = AVAudioTimePitchAlgorithm(rawValue: "Spectral")
    /// The pitch follows the rate (resampling).
    public static let varispeed = AVAudioTimePitchAlgorithm(rawValue: "Varispeed")
    /// Deprecated on Apple platforms; the pitch kept, as `timeDomain`.
    public static let lowQualityZeroLatency = AVAudioTimePitchAlgorithm(rawValue: "LowQualityZeroLatency")

    /// The engine's algorithm for this one.
    var engineAlgorithm: AudioTimePitchAlgorithm {
        switch self {
        case .varispeed: .varispeed
        case .spectral: .spectral
        default: .timeDomain
        }
    }

    init(_ algorithm: AudioTimePitchAlgorithm) {
        switch algorithm {
        case .varispeed: self = .varispeed
        case .spectral: self = .spectral
        case .timeDomain: self = .timeDomain
        }
    }
}
