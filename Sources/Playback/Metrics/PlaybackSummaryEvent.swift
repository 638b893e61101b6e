import Foundation

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
    /// Seconds spent waiting to play before the session first played (clock time).
    public let startupTime: Double
    /// The same in real time, whatever the clock.
    public let startupElapsedTime: Double
    /// Seconds spent waiting to play again after stalls.
    public let stallRecoveryTime: Double
    /// Frames shown.
    public let framesRendered: Int
    /// Frames dropped because they were late (host clock only).
    public let framesDropped: Int
    /// Seconds spent playing (clock time, rate not applied).
    public let playbackDuration: Double
    /// For an item fed over a link: the bytes of its URL that came over the link so far (every reader and player
    /// of the URL together: they share the byte cache), the last download rate measured (bytes per second), and
    /// the seconds from the first request to the first byte. Nil for local items.
    public let bytesTransferred: Int64?
    public let downloadRate: Double?
    public let timeToFirstByte: Double?
    /// Host clock: the audio clock minus the time of the frame on screen at the last frame shown while playing
    /// (seconds, as mpv's `avsync`: ``Player/avsync``); nil when none was shown while playing.
    public let avsync: Double?

    public init(
        context: MetricContext, stallCount: Int, seekCount: Int, startupTime: Double,
        stallRecoveryTime: Double, framesRendered: Int, framesDropped: Int, playbackDuration: Double,
        bytesTransferred: Int64? = nil, downloadRate: Double? = nil, timeToFirstByte: Double? = nil,
        startupElapsedTime: Double? = nil, avsync: Double? = nil
    ) {
        self.avsync = avsync
        self.startupElapsedTime = startupElapsedTime ?? startupTime
        self.bytesTransferred = bytesTransferred
        self.downloadRate = downloadRate
        self.timeToFirstByte = timeToFirstByte
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
            + " played=\(fmt(playbackDuration))" + (bytesTransferred.map { " bytes=\($0)" } ?? "")
    }
}
