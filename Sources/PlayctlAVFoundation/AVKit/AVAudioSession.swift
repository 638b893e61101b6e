import AudioDevice
import Locking
import PictureInPicture

/// The app's audio session, as `AVAudioSession`: its category and activation are the simulated app's
/// (`PlayctlAVFoundation.current.pictureInPictureSystem.app`), which Picture in Picture's preconditions read: it
/// needs the `.playback` category and an active session.
public final class AVAudioSession: NSObject, @unchecked Sendable {
    /// What the app's audio is for, as `AVAudioSession.Category`.
    public struct Category: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")

        var engineValue: AudioSession.Category {
            switch self {
            case .ambient: return .ambient
            case .playback: return .playback
            case .record: return .record
            case .playAndRecord: return .playAndRecord
            case .multiRoute: return .multiRoute
            default: return .soloAmbient
            }
        }

        init(_ category: AudioSession.Category) {
            switch category {
            case .ambient: self = .ambient
            case .soloAmbient: self = .soloAmbient
            case .playback: self = .playback
            case .record: self = .record
            case .playAndRecord: self = .playAndRecord
            case .multiRoute: self = .multiRoute
            }
        }
    }

    /// A refinement of the category, as `AVAudioSession.Mode` (kept: it changes nothing here).
    public struct Mode: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
    }

    /// Options of the category, as `AVAudioSession.CategoryOptions` (kept).
    public struct CategoryOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    }

    /// Options of `setActive(_:options:)`, as `AVAudioSession.SetActiveOptions` (kept).
    public struct SetActiveOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    private let app: SimulatedAppEnvironment
    /// The server watched for the route, and its monitor once started (``AVAudioSession/currentRoute`` or
    /// activation starts it).
    let soundServer: SoundServer
    let routeMonitor = Locked(RouteMonitorSlot.notStarted)
    private let extra = Locked((mode: Mode.default, options: CategoryOptions()))
    /// The sessions in use, by their app (held weakly: the category and activation live in the app).
    private static let sessions = Locked([ObjectIdentifier: WeakSession]())

    private struct WeakSession {
        weak var value: AVAudioSession?
    }

    private init(app: SimulatedAppEnvironment, soundServer: SoundServer) {
        self.app = app
        self.soundServer = soundServer
        super.init()
    }

    /// The app's session: the one of the Picture in Picture system of ``PlayctlAVFoundation/current`` (the same
    /// object while someone holds it; the category and activation are the simulated app's in any case).
    public static func sharedInstance() -> AVAudioSession {
        let configuration = PlayctlAVFoundation.current
        let app = configuration.pictureInPictureSystem.app
        return sessions.withLock { sessions in
            if let session = sessions[ObjectIdentifier(app)]?.value, session.app === app { return session }
            sessions = sessions.filter { $0.value.value != nil }
            let session = AVAudioSession(app: app, soundServer: configuration.soundServer)
            sessions[ObjectIdentifier(app)] = WeakSession(value: session)
            return session
        }
    }

    /// The category.
    public var category: Category { Category(app.audioSession.category) }
    /// The mode.
    public var mode: Mode { extra.withLock { $0.mode } }
    /// The category's options.
    public var categoryOptions: CategoryOptions { extra.withLock { $0.options } }
    /// Whether the app has activated the session (not an AVAudioSession property on iOS; for tests).
    public var isActive: Bool { app.audioSession.isActive }
    /// Always false: no other app plays.
    public var isOtherAudioPlaying: Bool { false }

    /// Sets the category (`mode` and `options` are kept).
    public func setCategory(_ category: Category, mode: Mode = .default, options: CategoryOptions = []) throws {
        extra.withLock { $0 = (mode, options) }
        var session = app.audioSession
        session.category = category.engineValue
        app.audioSession = session
    }

    /// Sets the category with options.
    public func setCategory(_ category: Category, options: CategoryOptions) throws {
        try setCategory(category, mode: .default, options: options)
    }

    /// Sets the mode.
    public func setMode(_ mode: Mode) throws { extra.withLock { $0.mode = mode } }

    /// Activates or deactivates the session. Activating it starts watching the sound server's route.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        if active { startRouteMonitor() }
        var session = app.audioSession
        session.isActive = active
        app.audioSession = session
    }
}
