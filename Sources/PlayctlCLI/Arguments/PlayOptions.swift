import CommandLineKit

/// The command line of `playctl play`, checked.
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

    /// `--audio`: where the audio plays.
    enum AudioOutputChoice: String, CaseIterable, ArgumentValue {
        /// Consumed at the clock's pace, not heard (the player's default).
        case null
        /// The PulseAudio server.
        case pulse
    }

    let path: String
    let rate: Float
    let seeks: [ScheduledSeek]
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
    /// `--decryption-key`.
    let decryptionKey: String?
    /// `--audio-lang`, `--sub-lang`: preferred languages of the audio and the subtitles.
    let audioLanguage: String?
    let subtitleLanguage: String?
    /// `--sub-file`: sidecar subtitle files, in order.
    let subtitleFiles: [String]

    /// Reads `play`'s options, in the order their mistakes are reported: `--rate`, `--until`, `--frames`, `--seek`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        path = arguments[PlayCommand.file]
        let rate = try arguments[PlayCommand.rate] ?? 1
        guard rate >= 0.25 && rate <= 4 else {
            throw arguments.invalidValue(
                PlayCommand.rate, value: arguments.text(of: PlayCommand.rate) ?? "", expected: "a rate from 0.25 to 4")
        }
        self.rate = Float(rate)
        until = try arguments[PlayCommand.until]
        if let until, until < 0 {
            throw arguments.invalidValue(
                PlayCommand.until, value: arguments.text(of: PlayCommand.until) ?? "", expected: "seconds, 0 or more")
        }
        frames = try arguments[PlayCommand.frames]
        if let frames, frames < 1 {
            throw arguments.invalidValue(PlayCommand.frames, value: String(frames), expected: "a positive integer")
        }
        seeks = try arguments[PlayCommand.seek]
        untimed = arguments[PlayCommand.untimed]
        audio = !arguments[PlayCommand.noAudio]
        audioOutput = try arguments[PlayCommand.audioOutput] ?? .null
        audioDevice = arguments[PlayCommand.audioDevice]
        json = arguments[PlayCommand.json]
        metricsPath = arguments[PlayCommand.metricsOut]
        cache = try CacheOptions(arguments, directory: PlayCommand.cacheDirectory, size: PlayCommand.cacheSize)
        decryptionKey = try arguments[PlayCommand.decryptionKey]?.hex
        audioLanguage = arguments[PlayCommand.audioLanguage]
        subtitleLanguage = arguments[PlayCommand.subtitleLanguage]
        subtitleFiles = arguments[PlayCommand.subtitleFile]
    }
}
