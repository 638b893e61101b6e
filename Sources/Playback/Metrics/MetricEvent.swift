import Foundation

/// Where and when a metric event happened: the facts every ``MetricEvent`` carries.
public struct MetricContext: Sendable, Hashable {
    /// When it happened. Under a host clock, the wall-clock date. Under a manual clock, the date the clock was
    /// first used by a player plus the clock's virtual time, so players sharing one manual clock have comparable
    /// dates; under an untimed clock, the player's creation date plus its virtual time.
    public var date: Date
    /// The item's time when it happened.
    public var mediaTime: MediaTime
    /// The playback session: one item's stay as the current item of one player (a new id each time an item
    /// becomes current). Events of one session share it, whichever stream they are read from.
    public var sessionID: String
    /// The player's clock time in seconds, as ``PlayerEvent/hostTime``: seconds since the player was created
    /// (virtual under a manual or untimed clock).
    public var hostTime: Double
    /// The file name of the item the event is about; nil when the player had no item.
    public var item: String?

    public init(date: Date, mediaTime: MediaTime, sessionID: String, hostTime: Double, item: String?) {
        self.date = date
        self.mediaTime = mediaTime
        self.sessionID = sessionID
        self.hostTime = hostTime
        self.item = item
    }
}

/// One typed fact about playback, as AVFoundation's `AVMetricEvent`: what happened, when, at which media time and
/// in which session. Read them with `PlayerItem.metrics(forType:)`, `Player.metrics(forType:)` or
/// `allMetrics()`.
public protocol MetricEvent: Sendable, CustomStringConvertible {
    /// The event's name in `playctl play --json` (`"metric.seek"`, ...).
    static var name: String { get }
    /// When, where and in which session it happened.
    var context: MetricContext { get }
}

extension MetricEvent {
    /// When it happened (see ``MetricContext/date``).
    public var date: Date { context.date }
    /// The item's time when it happened.
    public var mediaTime: MediaTime { context.mediaTime }
    /// The playback session it belongs to (see ``MetricContext/sessionID``).
    public var sessionID: String { context.sessionID }
    /// The player's clock time in seconds when it happened.
    public var hostTime: Double { context.hostTime }
    /// The file name of the item it concerns.
    public var item: String? { context.item }
    /// The event's name in `playctl play --json`.
    public var name: String { Self.name }
}

/// One entry of `Player.eventsAndMetrics()`: a player event, or a metric event, in the order they happened
/// (a metric derived from a player event comes right after it).
public enum PlaybackRecord: Sendable {
    /// A player event.
    case event(PlayerEvent)
    /// A metric event.
    case metric(any MetricEvent)
}

/// Seconds with three decimals, for descriptions.
func fmt(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

/// A time's seconds with three decimals, for descriptions.
func fmt(_ time: MediaTime) -> String { fmt(time.seconds) }
