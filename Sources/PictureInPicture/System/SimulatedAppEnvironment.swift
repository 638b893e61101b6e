import Locking

/// The simulated app around a ``SimulatedPictureInPictureSystem``: its audio session, its declared capabilities,
/// and where it is in its lifecycle.
///
/// Setting ``audioSession`` or ``hasBackgroundAudioCapability`` makes every controller of the system sample its
/// preconditions again (reporting ``PictureInPictureControllerEvent/possible(_:)`` on a flip). The lifecycle
/// itself is driven through the system (``SimulatedPictureInPictureSystem/enterBackground()`` and friends), which
/// also tells the controllers.
public final class SimulatedAppEnvironment: Sendable {
    /// Where the app is in its lifecycle.
    public enum LifecycleState: String, Sendable, Hashable, CaseIterable {
        /// On screen.
        case foreground
        /// Not on screen (another app is in front, or the screen is locked).
        case background
        /// The process has ended.
        case terminated
    }

    private struct Values {
        var audioSession: AudioSession
        var hasBackgroundAudioCapability: Bool
        var lifecycle: LifecycleState = .foreground
        var isScreenLocked = false
        var onChange: (@Sendable () -> Void)?
    }

    private let values: Locked<Values>

    /// An app in the foreground. The defaults describe an app set up for Picture in Picture: an active
    /// `.playback` audio session and the background-audio capability.
    public init(audioSession: AudioSession = .activePlayback, hasBackgroundAudioCapability: Bool = true) {
        values = Locked(Values(audioSession: audioSession, hasBackgroundAudioCapability: hasBackgroundAudioCapability))
    }

    /// The app's audio session (category and activation).
    public var audioSession: AudioSession {
        get { values.withLock { $0.audioSession } }
        set { change { $0.audioSession = newValue } }
    }

    /// Whether the app declares the background-audio capability (`UIBackgroundModes: audio`).
    public var hasBackgroundAudioCapability: Bool {
        get { values.withLock { $0.hasBackgroundAudioCapability } }
        set { change { $0.hasBackgroundAudioCapability = newValue } }
    }

    /// Where the app is in its lifecycle.
    public internal(set) var lifecycle: LifecycleState {
        get { values.withLock { $0.lifecycle } }
        set { values.withLock { $0.lifecycle = newValue } }
    }

    /// Whether the screen is locked.
    public internal(set) var isScreenLocked: Bool {
        get { values.withLock { $0.isScreenLocked } }
        set { values.withLock { $0.isScreenLocked = newValue } }
    }

    /// Whether content keeps playing while the screen is locked: only with an active `.playback` audio session
    /// and the background-audio capability.
    public var keepsPlayingWhenLocked: Bool {
        values.withLock { v in
            v.audioSession.category == .playback && v.audioSession.isActive && v.hasBackgroundAudioCapability
        }
    }

    /// Set once by the system that owns the environment.
    func setOnChange(_ block: @escaping @Sendable () -> Void) {
        values.withLock { $0.onChange = block }
    }

    private func change(_ body: (inout Values) -> Void) {
        let onChange = values.withLock { v -> (@Sendable () -> Void)? in
            body(&v)
            return v.onChange
        }
        onChange?()
    }
}
