import Locking
import PictureInPicture
import Playback

/// How this module's objects are made, where AVFoundation has no parameter for it: the clock new `AVPlayer`s
/// follow (iOS players have none: they run in real time), whether they decode audio, and the simulated Picture in
/// Picture system (with its app environment: the audio session) that new `AVPictureInPictureController`s and
/// `AVAudioSession.sharedInstance()` talk to.
///
/// App code stays unchanged; a test sets the configuration around it, for its own task and the tasks it creates:
///
/// ```text
/// let clock = ManualClock()
/// await PlayctlAVFoundation.withConfiguration(.init(clock: .manual(clock))) {
///     let player = AVPlayer(url: url)            // follows `clock`
/// }
/// ```
///
/// or for the whole process with ``clock`` (`PlayctlAVFoundation.clock = .manual(clock)`), which suits a program
/// but not tests that run in parallel. An object reads the configuration once, when it is made.
public enum PlayctlAVFoundation {
    /// One set of choices.
    public struct Configuration: Sendable {
        /// The clock of new players: `.host` (real time, as on iOS), `.manual(clock)` for deterministic tests, or
        /// `.untimed`.
        public var clock: ClockMode
        /// Whether new players decode audio (played on the engine's null audio device).
        public var decodesAudio: Bool
        /// The Picture in Picture system of new controllers and of `AVAudioSession.sharedInstance()`.
        public var pictureInPictureSystem: SimulatedPictureInPictureSystem
        /// The sound server whose outputs are `AVAudioSession`'s route, and whose going away is its interruption
        /// (`AVAudioSession.routeChangeNotification`, `.interruptionNotification`): by default the PulseAudio
        /// server of `PULSE_SERVER`, else the user's.
        public var soundServer: SoundServer = .pulseAudio(server: nil)

        /// A configuration on `clock`; by default its Picture in Picture system follows the same clock (an iOS
        /// system whose app starts with the default audio session, `.soloAmbient` and inactive, as an iOS app does,
        /// and with the background-audio capability).
        public init(
            clock: ClockMode = .host, decodesAudio: Bool = true,
            pictureInPictureSystem: SimulatedPictureInPictureSystem? = nil
        ) {
            self.clock = clock
            self.decodesAudio = decodesAudio
            self.pictureInPictureSystem =
                pictureInPictureSystem
                ?? SimulatedPictureInPictureSystem(
                    profile: .iOS, clock: clock,
                    app: SimulatedAppEnvironment(audioSession: AudioSession(), hasBackgroundAudioCapability: true))
        }
    }

    private static let global = Locked(Configuration())

    @TaskLocal private static var scoped: Configuration?

    /// The configuration in force: the one of ``withConfiguration(_:operation:)-swift.type.method`` around the
    /// caller, else the process-wide one.
    public static var current: Configuration { scoped ?? global.withLock { $0 } }

    /// The process-wide configuration (the host clock unless changed).
    public static var processConfiguration: Configuration {
        get { global.withLock { $0 } }
        set { global.withLock { $0 = newValue } }
    }

    /// The clock of new players made outside any ``withConfiguration(_:operation:)-swift.type.method``: setting it
    /// replaces the process-wide configuration with a new one on that clock (and a Picture in Picture system on it).
    public static var clock: ClockMode {
        get { processConfiguration.clock }
        set { processConfiguration = Configuration(clock: newValue) }
    }

    /// Runs `operation` with `configuration` in force for it and every task it creates (not for detached tasks or
    /// blocks dispatched to a queue, which see the process-wide one).
    public static func withConfiguration<T>(
        _ configuration: Configuration, operation: () async throws -> T,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        try await $scoped.withValue(configuration, operation: operation)
    }

    /// Runs `operation` with `configuration` in force for it.
    public static func withConfiguration<T>(_ configuration: Configuration, operation: () throws -> T) rethrows -> T {
        try $scoped.withValue(configuration, operation: operation)
    }
}
