import CommandLineKit

/// The command line of `playctl play`, checked: what a play session runs (`PlayCommand.options`).
struct PlayOptions: Sendable {
    /// `--seek SEC[@AT]`: seek exactly to `to` when the media time reaches `at` (at the start when nil).
    struct ScheduledSeek: Equatable, ArgumentValue {
        let to: Double
        let at: Double?

        /// `SEC` or `SEC@AT`, both finite numbers of seconds, 0 or more; `@0` is the same as no `@AT`.
        init?(argument: String) {
            let parts = argument.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, let to = Double(parts[0]), to.isFinite, to >= 0 else { return nil }
            var at: Double?
            if parts.count == 2 {
                guard let value = Double(parts[1]), value.isFinite, value >= 0 else { return nil }
                at = value > 0 ? value : nil
            }
            self.to = to
            self.at = at
        }

        static let expectedArgument = "SEC or SEC@AT (seconds, 0 or more)"
    }

    /// `--scrub FROM-TO@AT/DURATION`: a drag of the seek bar from FROM to TO seconds, starting AT seconds after
    /// playback starts and lasting DURATION seconds (60 positions, evenly spaced).
    struct ScheduledScrub: Equatable, ArgumentValue {
        let from: Double
        let to: Double
        let at: Double
        let duration: Double

        init?(argument: String) {
            let drag = argument.split(separator: "@", omittingEmptySubsequences: false)
            guard drag.count == 2 else { return nil }
            let span = drag[0].split(separator: "-", omittingEmptySubsequences: false)
            let when = drag[1].split(separator: "/", omittingEmptySubsequences: false)
            guard span.count == 2, when.count == 2, let from = Double(span[0]), let to = Double(span[1]),
                let at = Double(when[0]), let duration = Double(when[1]),
                [from, to, at, duration].allSatisfy({ $0.isFinite && $0 >= 0 }), duration > 0
            else { return nil }
            (self.from, self.to, self.at, self.duration) = (from, to, at, duration)
        }

        static let expectedArgument = "FROM-TO@AT/DURATION in seconds (0-5@1/2: from 0 to 5 s, 1 s in, over 2 s)"

        /// Positions asked in a drag.
        static let positions = 60
    }

    /// `--time-pitch`: how the audio plays at rates other than 1 (AVFoundation's names).
    enum TimePitchChoice: String, CaseIterable, ArgumentValue {
        /// The pitch kept (time-stretching): the default.
        case timeDomain = "time-domain"
        /// The pitch kept (the same time-stretching).
        case spectral
        /// The pitch follows the rate (resampling).
        case varispeed
    }

    /// `--audio`: where the audio plays.
    enum AudioOutputChoice: String, CaseIterable, ArgumentValue {
        /// Consumed at the clock's pace, not heard (the player's default).
        case null
        /// The PulseAudio server.
        case pulse
    }

    let path: String
    /// `--rate`, 0.25 to 4.
    let rate: Float
    /// `--time-pitch`.
    let timePitch: TimePitchChoice
    let seeks: [ScheduledSeek]
    let scrubs: [ScheduledScrub]
    let until: Double?
    /// `--frames N`: stop once N video frames have been shown.
    let frames: Int?
    let untimed: Bool
    let audio: Bool
    /// `--audio`, `--audio-device`: where the audio plays, and the sink (nil: the server's default).
    let audioOutput: AudioOutputChoice
    let audioDevice: String?
    let json: Bool
    let metricsPath: String?
    /// Where the bytes of http(s) media are cached.
    let cache: CacheOptions
    /// `--header`: HTTP header fields sent for an http(s) FILE.
    let headers: [String: String]
    /// `--decryption-key`.
    let decryptionKey: String?
    /// `--audio-lang`, `--sub-lang`: preferred languages of the audio and the subtitles.
    let audioLanguage: String?
    let subtitleLanguage: String?
    /// `--sub-file`: sidecar subtitle files, in order.
    let subtitleFiles: [String]
    /// `--max-bitrate`, `--max-resolution`: an HLS or DASH item's variant limits.
    let limits: VariantLimitOptions
}
