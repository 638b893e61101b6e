/// How an item's audio is played at rates other than 1, as AVFoundation's `AVAudioTimePitchAlgorithm`.
public enum AudioTimePitchAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// The pitch is kept: time-stretching (libavfilter's `atempo`, WSOLA); the default, as on iOS.
    case timeDomain
    /// The pitch is kept; Apple's algorithm is a spectral one, here it is the same time-stretching as
    /// ``timeDomain`` (FFmpeg has no other).
    case spectral
    /// The pitch follows the rate, as a tape played faster: the samples are resampled (rate 2 sounds an octave up).
    case varispeed

    /// Whether the pitch is kept at rates other than 1.
    public var keepsPitch: Bool { self != .varispeed }
}
