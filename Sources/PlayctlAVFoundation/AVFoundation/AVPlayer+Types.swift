import Playback

extension AVPlayer {
    /// Whether playback is progressing, paused, or waiting, as `AVPlayer.TimeControlStatus` (same raw values).
    public enum TimeControlStatus: Int, Sendable, Hashable, CustomStringConvertible {
        /// Paused: the rate is zero.
        case paused = 0
        /// The rate is nonzero but playback waits; ``AVPlayer/reasonForWaitingToPlay`` says why.
        case waitingToPlayAtSpecifiedRate = 1
        /// Playing at the rate.
        case playing = 2

        init(_ status: Playback.TimeControlStatus) {
            switch status {
            case .paused: self = .paused
            case .waitingToPlayAtSpecifiedRate: self = .waitingToPlayAtSpecifiedRate
            case .playing: self = .playing
            }
        }

        /// `"paused"`, `"waitingToPlayAtSpecifiedRate"` or `"playing"`.
        public var description: String { Playback.TimeControlStatus(rawValue: rawValue)?.description ?? "\(rawValue)" }
    }

    /// Why a player with a nonzero rate waits, as `AVPlayer.WaitingReason` (same raw values).
    public struct WaitingReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Playing now would likely stall: the player waits until the buffer is likely to keep up or full.
        public static let toMinimizeStalls = WaitingReason(rawValue: "AVPlayerWaitingToMinimizeStallsReason")
        /// The player is still finding out whether the buffer will keep up (an item loading); Apple advises not to
        /// show a waiting indicator for this reason alone.
        public static let evaluatingBufferingRate = WaitingReason(
            rawValue: "AVPlayerWaitingWhileEvaluatingBufferingRateReason")
        /// There is no current item.
        public static let noItemToPlay = WaitingReason(rawValue: "AVPlayerWaitingWithNoItemToPlayReason")
        /// An interstitial event plays (never reported here: there are no interstitials).
        public static let interstitialEvent = WaitingReason(rawValue: "AVPlayerWaitingDuringInterstitialEventReason")
        /// Coordinated playback waits for others (never reported here: there is no SharePlay).
        public static let waitingForCoordinatedPlayback = WaitingReason(
            rawValue: "AVPlayerWaitingForCoordinatedPlaybackReason")

        init(_ reason: Playback.WaitingReason) {
            switch reason {
            case .toMinimizeStalls: self = .toMinimizeStalls
            case .evaluatingBufferingRate: self = .evaluatingBufferingRate
            case .noItemToPlay: self = .noItemToPlay
            }
        }

        /// The short name: `"toMinimizeStalls"`, `"evaluatingBufferingRate"`, `"noItemToPlay"`, ...
        public var description: String {
            switch self {
            case .toMinimizeStalls: return "toMinimizeStalls"
            case .evaluatingBufferingRate: return "evaluatingBufferingRate"
            case .noItemToPlay: return "noItemToPlay"
            case .interstitialEvent: return "interstitialEvent"
            case .waitingForCoordinatedPlayback: return "waitingForCoordinatedPlayback"
            default: return rawValue
            }
        }
    }

    /// Whether the player can be used, as `AVPlayer.Status` (same raw values).
    public enum Status: Int, Sendable, Hashable, CustomStringConvertible {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2

        /// `"unknown"`, `"readyToPlay"` or `"failed"`.
        public var description: String { PlayerItemStatus(rawValue: rawValue)?.description ?? "\(rawValue)" }
    }

    /// What the player does when its item ends, as `AVPlayer.ActionAtItemEnd` (same raw values).
    public enum ActionAtItemEnd: Int, Sendable, Hashable {
        /// Advance to the next item (only an ``AVQueuePlayer`` may).
        case advance = 0
        /// Pause.
        case pause = 1
        /// Do nothing: the rate is kept and the time stays at the end.
        case none = 2

        var engineValue: Playback.ActionAtItemEnd {
            switch self {
            case .advance: return .advance
            case .pause: return .pause
            case .none: return .none
            }
        }

        init(_ action: Playback.ActionAtItemEnd) {
            switch action {
            case .advance: self = .advance
            case .pause: self = .pause
            case .none: self = .none
            }
        }
    }
}

/// `AVPlayer.TimeControlStatus`, by its Objective-C name.
public typealias AVPlayerTimeControlStatus = AVPlayer.TimeControlStatus
/// `AVPlayer.Status`, by its Objective-C name.
public typealias AVPlayerStatus = AVPlayer.Status
/// `AVPlayer.ActionAtItemEnd`, by its Objective-C name.
public typealias AVPlayerActionAtItemEnd = AVPlayer.ActionAtItemEnd
