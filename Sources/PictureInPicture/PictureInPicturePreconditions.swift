/// A value model of the process-wide audio session, reduced to what decides
/// whether Picture in Picture may start.
///
/// This mirrors `AVAudioSession`: the category says what the app's audio is
/// for, and `isActive` says whether the app currently holds the session.
/// Picture in Picture keeps playing while the app is in the background, so it
/// needs a session that is both active and in a category that permits
/// background playback (see ``AudioSession/Category/permitsPictureInPicture``).
public struct AudioSession: Equatable, Hashable, Sendable {
    /// The audio session categories of `AVAudioSession`.
    public enum Category: String, CaseIterable, Equatable, Hashable, Sendable {
        /// Mixable, silenced by the ring/silent switch, stops in the background.
        case ambient
        /// The system default: not mixable, silenced by the switch, stops in the background.
        case soloAmbient
        /// Media playback that continues in the background. The only category that permits Picture in Picture.
        case playback
        /// Recording only.
        case record
        /// Simultaneous recording and playback (calls). Video-call Picture in Picture is out of scope.
        case playAndRecord
        /// Routing distinct streams to distinct outputs.
        case multiRoute

        /// `true` only for ``playback``. AVKit requires the playback category for
        /// media Picture in Picture; every other category makes the start fail with
        /// ``PictureInPictureError/audioSessionCategoryNotPlayback(current:)``.
        public var permitsPictureInPicture: Bool { self == .playback }
    }

    /// What the app declared its audio is for.
    public var category: Category
    /// Whether the app has activated the session (`setActive(true)`).
    public var isActive: Bool

    /// Creates a session model. The defaults are the system's defaults for a
    /// freshly launched app: `.soloAmbient`, not active.
    public init(category: Category = .soloAmbient, isActive: Bool = false) {
        self.category = category
        self.isActive = isActive
    }

    /// An active session in the `.playback` category: the one Picture in Picture needs.
    public static let activePlayback = AudioSession(category: .playback, isActive: true)
}

/// Everything that must hold before Picture in Picture can start, as a value.
///
/// The driver samples these facts from the host and the player and hands them
/// to the state machine; the machine never looks them up itself, so tests can
/// state them directly.
public struct PictureInPicturePreconditions: Equatable, Hashable, Sendable {
    /// The host offers Picture in Picture (`AVPictureInPictureController.isPictureInPictureSupported()`).
    public var isSupportedByHost: Bool
    /// The current audio session.
    public var audioSession: AudioSession
    /// The app declares the background-audio capability.
    public var hasBackgroundAudioCapability: Bool
    /// The content source has a frame to show (`AVPlayerLayer.isReadyForDisplay`).
    public var isContentSourceReadyForDisplay: Bool

    /// Creates a set of preconditions. Every default is the unsatisfied value,
    /// so a default-constructed value is "not possible, host unsupported".
    public init(
        isSupportedByHost: Bool = false,
        audioSession: AudioSession = AudioSession(),
        hasBackgroundAudioCapability: Bool = false,
        isContentSourceReadyForDisplay: Bool = false
    ) {
        self.isSupportedByHost = isSupportedByHost
        self.audioSession = audioSession
        self.hasBackgroundAudioCapability = hasBackgroundAudioCapability
        self.isContentSourceReadyForDisplay = isContentSourceReadyForDisplay
    }

    /// Preconditions with every requirement met.
    public static let allSatisfied = PictureInPicturePreconditions(
        isSupportedByHost: true,
        audioSession: .activePlayback,
        hasBackgroundAudioCapability: true,
        isContentSourceReadyForDisplay: true
    )

    /// Returns the first unmet precondition, or `nil` when Picture in Picture is possible.
    ///
    /// The order is fixed and documented so that a caller fixing problems one by
    /// one sees them in a stable sequence, from the most fundamental to the most
    /// transient:
    /// 1. ``PictureInPictureError/notSupported`` (host),
    /// 2. ``PictureInPictureError/audioSessionCategoryNotPlayback(current:)`` (category),
    /// 3. ``PictureInPictureError/audioSessionInactive`` (activation),
    /// 4. ``PictureInPictureError/backgroundAudioCapabilityMissing`` (app capability),
    /// 5. ``PictureInPictureError/contentSourceNotReadyForDisplay`` (content).
    public func check() -> PictureInPictureError? {
        if !isSupportedByHost { return .notSupported }
        if !audioSession.category.permitsPictureInPicture {
            return .audioSessionCategoryNotPlayback(current: audioSession.category)
        }
        if !audioSession.isActive { return .audioSessionInactive }
        if !hasBackgroundAudioCapability { return .backgroundAudioCapabilityMissing }
        if !isContentSourceReadyForDisplay { return .contentSourceNotReadyForDisplay }
        return nil
    }

    /// `true` exactly when ``check()`` returns `nil`
    /// (`AVPictureInPictureController.isPictureInPicturePossible`).
    public var isPossible: Bool { check() == nil }
}
