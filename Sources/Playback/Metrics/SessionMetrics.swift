import Foundation
import MediaIO

/// How the content shown was swapped (the raw values match Picture in Picture's `ContentSourceChangeMode`).
public enum ContentSwapMode: String, Sendable, Hashable, CaseIterable {
    /// A new player (and layer) took over: the new content was prepared by another player.
    case source
    /// The same player replaced its current item.
    case item
}

/// The content shown was swapped from one item to another, and the new item's first frame is on screen.
/// Recorded with ``MetricsCollector/recordContentSwap(from:to:mode:)``.
public struct ContentSwapEvent: MetricEvent, Equatable {
    public static let name = "metric.contentSwap"
    public let context: MetricContext
    /// The file name of the item shown before; nil for none.
    public let from: String?
    /// The file name of the item shown now.
    public let to: String?
    /// Whether a new player took over (`source`) or the player replaced its item (`item`).
    public let mode: ContentSwapMode
    /// Seconds of clock time from the swap to the new item's first frame (0 when it was already on screen).
    public let latency: Double

    public init(context: MetricContext, from: String?, to: String?, mode: ContentSwapMode, latency: Double) {
        self.context = context
        self.from = from
        self.to = to
        self.mode = mode
        self.latency = latency
    }

    public var description: String {
        "contentSwap \(from ?? "nil") -> \(to ?? "nil") \(mode.rawValue) after \(fmt(latency))"
    }
}

/// The thread that runs the app's callbacks (time observers, sinks, taps) was blocked longer than the
/// watchdog's threshold. One event per hang.
public struct HangEvent: MetricEvent, Equatable {
    public static let name = "metric.hang"
    public let context: MetricContext
    /// The callback that blocked: `"periodicTimeObserver"`, `"boundaryTimeObserver"`, `"videoSink"`,
    /// `"audioTap"` or `"willAdvanceToNextItem"`.
    public let callback: String
    /// Seconds of real time the callback blocked (so far, when not ``ended``).
    public let duration: Double
    /// The threshold it passed, in seconds.
    public let threshold: Double
    /// True when the callback had returned (``duration`` is its whole blocking time); false when the watchdog
    /// reported a callback still blocked after ``MetricsCollector/ongoingHangReportDelay``.
    public let ended: Bool

    public init(context: MetricContext, callback: String, duration: Double, threshold: Double, ended: Bool) {
        self.context = context
        self.callback = callback
        self.duration = duration
        self.threshold = threshold
        self.ended = ended
    }

    public var description: String { "hang \(callback) \(fmt(duration))\(ended ? "" : " ongoing")" }
}

/// What one session cost and delivered. Sent when its item plays to its end or fails, when it stops being the
/// current item, and when the player is invalidated; each covers the whole session so far, and another is sent
/// at the end of the session only if something happened since.
public struct PlaybackSummaryEvent: MetricEvent, Equatable {
    public static let name = "metric.summary"
    public let context: MetricContext
    /// Stalls (the player ran out of media while playing).
    public let stallCount: Int
    /// Seeks requested (finished or not).
    public let seekCount: Int
    /// Seconds spent waiting to play before the session first played.
    public let startupTime: Double
    /// Seconds spent waiting to play again after stalls.
    public let stallRecoveryTime: Double
    /// Frames shown.
    public let framesRendered: Int
    /// Frames dropped because they were late (host clock only).
    public let framesDropped: Int
    /// Seconds spent playing (clock time, rate not applied).
    public let playbackDuration: Double

    public init(context: MetricContext, stallCount: Int, seekCount: Int, startupTime: Double,
                stallRecoveryTime: Double, framesRendered: Int, framesDropped: Int, playbackDuration: Double) {
        self.context = context
        self.stallCount = stallCount
        self.seekCount = seekCount
        self.startupTime = startupTime
        self.stallRecoveryTime = stallRecoveryTime
        self.framesRendered = framesRendered
        self.framesDropped = framesDropped
        self.playbackDuration = playbackDuration
    }

    public var description: String {
        "summary stalls=\(stallCount) seeks=\(seekCount) frames=\(framesRendered)/\(framesDropped)"
            + " played=\(fmt(playbackDuration))"
    }
}
