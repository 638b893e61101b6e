import Foundation

/// Why a player's rate changed.
public enum RateChangeReason: String, Sendable, Hashable {
    /// The app set it: `rate`, `play()`, `pause()`, `playImmediately(atRate:)`.
    case setRateCalled
    /// The item played to its end and `actionAtItemEnd` is `.pause`.
    case playedToEnd
    /// Playback stalled with `automaticallyWaitsToMinimizeStalling` off: the player paused.
    case stalled
    /// The current item failed.
    case itemFailed
}

/// The player's rate changed (like `AVMetricPlayerItemRateChangeEvent`).
public struct RateChangeEvent: MetricEvent, Equatable {
    public static let name = "metric.rateChange"
    public let context: MetricContext
    /// The new rate (0: paused).
    public let rate: Float
    /// The rate before.
    public let previousRate: Float
    /// Why it changed.
    public let reason: RateChangeReason

    public init(context: MetricContext, rate: Float, previousRate: Float, reason: RateChangeReason) {
        self.context = context
        self.rate = rate
        self.previousRate = previousRate
        self.reason = reason
    }

    public var description: String { "rateChange \(rate) (was \(previousRate)) \(reason.rawValue)" }
}

/// Playback ran out of media while playing (like `AVMetricPlayerItemStallEvent`).
public struct StallEvent: MetricEvent, Equatable {
    public static let name = "metric.stall"
    public let context: MetricContext

    public init(context: MetricContext) { self.context = context }

    public var description: String { "stall" }
}

/// The item's buffer became likely to keep up again after it was not
/// (like `AVMetricPlayerItemLikelyToKeepUpEvent`). The first time in a session is an
/// ``InitialLikelyToKeepUpEvent`` instead.
public struct LikelyToKeepUpEvent: MetricEvent, Equatable {
    public static let name = "metric.likelyToKeepUp"
    public let context: MetricContext
    /// Seconds of clock time since the buffer stopped being likely to keep up.
    public let timeTaken: Double

    public init(context: MetricContext, timeTaken: Double) {
        self.context = context
        self.timeTaken = timeTaken
    }

    /// False: this is a recovery, not the first time in the session.
    public var isInitial: Bool { false }

    public var description: String { "likelyToKeepUp after \(fmt(timeTaken))" }
}

/// The item's buffer became likely to keep up for the first time in its session
/// (like `AVMetricPlayerItemInitialLikelyToKeepUpEvent`).
public struct InitialLikelyToKeepUpEvent: MetricEvent, Equatable {
    /// Printed with the name of ``LikelyToKeepUpEvent``, marked `"initial": true`.
    public static let name = "metric.likelyToKeepUp"
    public let context: MetricContext
    /// Seconds of clock time since the item became current.
    public let timeTaken: Double

    public init(context: MetricContext, timeTaken: Double) {
        self.context = context
        self.timeTaken = timeTaken
    }

    /// True: the first time in the session.
    public var isInitial: Bool { true }

    public var description: String { "initialLikelyToKeepUp after \(fmt(timeTaken))" }
}

/// The first frame of the session's item was shown: the startup latency.
public struct FirstFrameEvent: MetricEvent, Equatable {
    public static let name = "metric.firstFrame"
    public let context: MetricContext
    /// Seconds of clock time from the item becoming current to its first frame on screen.
    public let latency: Double
    /// The same in real time, whatever the clock (under a manual or untimed clock `latency` does not see the
    /// engine's work: this does).
    public let elapsedTime: Double

    public init(context: MetricContext, latency: Double, elapsedTime: Double? = nil) {
        self.context = context
        self.latency = latency
        self.elapsedTime = elapsedTime ?? latency
    }

    public var description: String { "firstFrame after \(fmt(latency))" }
}
