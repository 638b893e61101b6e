import Foundation

/// The player's callback executor (which runs time observers, sinks, layer observers, taps) was blocked by one
/// callback longer than the watchdog's threshold. One event per hang.
public struct HangEvent: MetricEvent, Equatable {
    public static let name = "metric.hang"
    public let context: MetricContext
    /// The callback that blocked: `"periodicTimeObserver"`, `"boundaryTimeObserver"`, `"videoSink"`,
    /// `"playerLayer"`, `"audioTap"` or `"willAdvanceToNextItem"`.
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
