import Playback

/// One fact about playback, as iOS 18's `AVMetricEvent`: when it happened, at which media time, in which session.
/// Each is made from one of the engine's metric events (``playctlEvent``), which carries more.
open class AVMetricEvent: NSObject, @unchecked Sendable {
    /// When it happened (under a manual clock: the clock's epoch plus its time).
    public let date: Date
    /// The item's time then.
    public let mediaTime: CMTime
    /// The playback session: one item's stay as one player's current item.
    public let sessionID: String?
    /// The engine's event.
    public let playctlEvent: any MetricEvent

    init(_ event: any MetricEvent) {
        date = event.date
        mediaTime = CMTime(event.mediaTime)
        sessionID = event.sessionID
        playctlEvent = event
        super.init()
    }

    /// The engine event's description (`"seek 1 1.000 from 0.500 exact api"`).
    open override var description: String { playctlEvent.description }
}

/// The rate changed, as `AVMetricPlayerItemRateChangeEvent`.
open class AVMetricPlayerItemRateChangeEvent: AVMetricEvent, @unchecked Sendable {
    /// The rate after.
    public let rate: Double
    /// The rate before.
    public let previousRate: Double

    init(_ event: any MetricEvent, rate: Double, previousRate: Double) {
        self.rate = rate
        self.previousRate = previousRate
        super.init(event)
    }
}

/// Playback stalled, as `AVMetricPlayerItemStallEvent` (a rate change: the rates are the player's rate then).
open class AVMetricPlayerItemStallEvent: AVMetricPlayerItemRateChangeEvent, @unchecked Sendable {}

/// A seek was asked for, as `AVMetricPlayerItemSeekEvent` (a rate change: the rates are the player's rate then;
/// the engine's ``SeekEvent`` in ``AVMetricEvent/playctlEvent`` has the target, origin and tolerance).
open class AVMetricPlayerItemSeekEvent: AVMetricPlayerItemRateChangeEvent, @unchecked Sendable {}

/// A seek completed, as `AVMetricPlayerItemSeekDidCompleteEvent`. Sent for every completion, superseded ones
/// included (the engine's ``SeekDidCompleteEvent`` in ``AVMetricEvent/playctlEvent`` says `finished`).
open class AVMetricPlayerItemSeekDidCompleteEvent: AVMetricPlayerItemRateChangeEvent, @unchecked Sendable {
    /// Whether the target was already decoded when the seek was asked for.
    public let didSeekInBuffer: Bool

    init(_ event: SeekDidCompleteEvent, rate: Double) {
        didSeekInBuffer = event.didSeekInBuffer
        super.init(event, rate: rate, previousRate: rate)
    }
}

/// The buffer became likely to keep up again, as `AVMetricPlayerItemLikelyToKeepUpEvent`.
open class AVMetricPlayerItemLikelyToKeepUpEvent: AVMetricEvent, @unchecked Sendable {
    /// Seconds it took.
    public let timeTaken: TimeInterval
    /// Not reported (empty): read the item's `loadedTimeRanges`.
    public let loadedTimeRanges: [CMTimeRange] = []

    init(_ event: any MetricEvent, timeTaken: TimeInterval) {
        self.timeTaken = timeTaken
        super.init(event)
    }
}

/// The buffer became likely to keep up for the first time in the session, as
/// `AVMetricPlayerItemInitialLikelyToKeepUpEvent`: `timeTaken` is the startup time.
open class AVMetricPlayerItemInitialLikelyToKeepUpEvent: AVMetricPlayerItemLikelyToKeepUpEvent, @unchecked Sendable {}

/// A session's summary, as `AVMetricPlayerItemPlaybackSummaryEvent` (what a progressive file without variants has:
/// no errors, no variant switches, no bit rates).
open class AVMetricPlayerItemPlaybackSummaryEvent: AVMetricEvent, @unchecked Sendable {
    /// Stalls in the session.
    public let stallCount: Int
    /// Whole seconds spent playing.
    public let playbackDuration: Int
    /// Seconds spent waiting to play again after stalls.
    public let timeSpentRecoveringFromStall: TimeInterval
    /// Seconds spent waiting before the session first played.
    public let timeSpentInInitialStartup: TimeInterval
    /// Always 0.
    public let recoverableErrorCount = 0
    /// Always 0.
    public let variantSwitchCount = 0
    /// Always 0.
    public let mediaResourceRequestCount = 0
    /// Always 0.
    public let timeWeightedAverageBitrate: Double = 0
    /// Always 0.
    public let timeWeightedPeakBitrate: Double = 0

    init(_ event: PlaybackSummaryEvent) {
        stallCount = event.stallCount
        playbackDuration = Int(event.playbackDuration)
        timeSpentRecoveringFromStall = event.stallRecoveryTime
        timeSpentInInitialStartup = event.startupTime
        super.init(event)
    }
}
