// swift-format-ignore-file: AlwaysUseLowerCamelCase
import AudioDevice
import Foundation

/// The session's route and interruptions, from the sound server (``PlayctlAVFoundation/Configuration/soundServer``):
/// the route is the server's default output; it changes when that output goes away (`.oldDeviceUnavailable`), when
/// one that appeared since becomes the default (`.newDeviceAvailable`), or when another is chosen
/// (`.routeConfigurationChange`); the server going away begins an interruption and its return ends it
/// (`.shouldResume`). Watching starts when the session is activated or its route is first read; until the
/// server's first answer (one round trip) the route is empty. Notifications are posted on a queue of the
/// session's, with the session as their object.
extension AVAudioSession {
    /// Why the route changed, as `AVAudioSession.RouteChangeReason` (the server's events give `newDeviceAvailable`,
    /// `oldDeviceUnavailable` and `routeConfigurationChange`).
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    /// An interruption's beginning or end, as `AVAudioSession.InterruptionType`.
    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    /// What an interruption's end says, as `AVAudioSession.InterruptionOptions`.
    public struct InterruptionOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The app may play again (the server came back).
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    /// Posted when the route changed: `userInfo` holds the reason (`AVAudioSessionRouteChangeReasonKey`, a `UInt`)
    /// and the route before (`AVAudioSessionRouteChangePreviousRouteKey`).
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when an interruption begins or ends: `userInfo` holds its type (`AVAudioSessionInterruptionTypeKey`,
    /// a `UInt`) and, at its end, its options (`AVAudioSessionInterruptionOptionKey`, a `UInt`).
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")

    /// The route of the session's sound: the server's default output (empty before the server's first answer, or
    /// with no sound server).
    public var currentRoute: AVAudioSessionRouteDescription {
        AVAudioSessionRouteDescription(startRouteMonitor()?.route)
    }

    /// Starts watching the sound server, once; the monitor (nil: none, or libpulse is missing).
    @discardableResult
    func startRouteMonitor() -> PulseRouteMonitor? {
        guard case .pulseAudio(let server) = soundServer else { return nil }
        return routeMonitor.withLock { slot -> PulseRouteMonitor? in
            switch slot {
            case .running(let monitor): return monitor
            case .unavailable: return nil
            case .notStarted:
                let monitor = try? PulseRouteMonitor.start(server: server) { [weak self] change in
                    self?.post(change)
                }
                slot = monitor.map { .running($0) } ?? .unavailable
                return monitor
            }
        }
    }

    /// Posts `change` (on the monitor's queue, no lock held).
    private func post(_ change: AudioRouteState.Change) {
        switch change {
        case .routeChanged(let previous, _, let reason):
            let reason: RouteChangeReason =
                switch reason {
                case .newDeviceAvailable: .newDeviceAvailable
                case .oldDeviceUnavailable: .oldDeviceUnavailable
                case .routeConfigurationChange: .routeConfigurationChange
                }
            NotificationCenter.default.post(
                name: Self.routeChangeNotification, object: self,
                userInfo: [
                    AVAudioSessionRouteChangeReasonKey: reason.rawValue,
                    AVAudioSessionRouteChangePreviousRouteKey: AVAudioSessionRouteDescription(previous),
                ])
        case .interruptionBegan:
            NotificationCenter.default.post(
                name: Self.interruptionNotification, object: self,
                userInfo: [AVAudioSessionInterruptionTypeKey: InterruptionType.began.rawValue])
        case .interruptionEnded:
            NotificationCenter.default.post(
                name: Self.interruptionNotification, object: self,
                userInfo: [
                    AVAudioSessionInterruptionTypeKey: InterruptionType.ended.rawValue,
                    AVAudioSessionInterruptionOptionKey: InterruptionOptions.shouldResume.rawValue,
                ])
        }
    }
}

/// Whether a session watches its sound server.
enum RouteMonitorSlot: Sendable {
    case notStarted
    case running(PulseRouteMonitor)
    /// libpulse is missing (or made no main loop): the route stays empty.
    case unavailable
}

/// The key of a route change's reason in its notification's `userInfo` (a `UInt`).
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// The key of the route before a change in its notification's `userInfo` (an ``AVAudioSessionRouteDescription``).
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// The key of an interruption's type in its notification's `userInfo` (a `UInt`).
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// The key of an interruption's end options in its notification's `userInfo` (a `UInt`).
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
