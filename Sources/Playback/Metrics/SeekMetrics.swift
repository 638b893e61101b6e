import Foundation

/// How close to the requested time a seek must land.
public enum SeekTolerance: String, Sendable, Hashable {
    /// Zero tolerance: the frame on screen at the requested time.
    case exact
    /// Infinite tolerance: the keyframe at or before the requested time.
    case keyframe
}

/// A seek was requested (like `AVMetricPlayerItemSeekEvent`, reported at the request). Its outcome follows as a
/// ``SeekDidCompleteEvent`` with the same ``id``.
public struct SeekEvent: MetricEvent, Equatable {
    public static let name = "metric.seek"
    public let context: MetricContext
    /// Identifies the seek; its ``SeekDidCompleteEvent`` has the same id. Ids increase in request order.
    public let id: SeekID
    /// The time asked for (clamped to the item).
    public let requestedTime: MediaTime
    /// The item's time when the seek was requested: where it left from.
    public let fromTime: MediaTime
    /// Exact or keyframe.
    public let tolerance: SeekTolerance
    /// Who asked: the app's API, a Picture in Picture skip button, or scrubbing.
    public let origin: SeekOrigin

    public init(
        context: MetricContext, id: SeekID, requestedTime: MediaTime, fromTime: MediaTime,
        tolerance: SeekTolerance, origin: SeekOrigin
    ) {
        self.context = context
        self.id = id
        self.requestedTime = requestedTime
        self.fromTime = fromTime
        self.tolerance = tolerance
        self.origin = origin
    }

    public var description: String {
        "seek \(id) \(fmt(requestedTime)) from \(fmt(fromTime)) \(tolerance.rawValue) \(origin.rawValue)"
    }
}

/// A seek completed (the pair of a ``SeekEvent``, same ``id``): where it landed and what it cost.
///
/// Every ``SeekEvent`` gets exactly one completion, and completions come in id order.
public struct SeekDidCompleteEvent: MetricEvent, Equatable {
    public static let name = "metric.seekDidComplete"
    public let context: MetricContext
    /// The id of the ``SeekEvent`` this completes.
    public let id: SeekID
    /// False when the seek was superseded by a newer one, cancelled, or failed.
    public let finished: Bool
    /// Where it landed: the requested time for an exact seek, the keyframe's time for a keyframe seek; nil when
    /// not ``finished``.
    public let landedTime: MediaTime?
    /// Whether the target was already decoded when the seek was requested (between the frame on screen and the
    /// last decoded frame waiting to be shown).
    public let didSeekInBuffer: Bool
    /// Seconds of clock time from the request to the completion.
    public let latency: Double
    /// The same in real time, whatever the clock.
    public let elapsedTime: Double
    /// Frames decoded while landing, the landing frame included.
    public let framesDecoded: Int
    /// Frames before the target that were not decoded at all (nothing references them).
    public let framesSkipped: Int
    /// Decoded frames thrown away because they were before the target.
    public let framesDiscarded: Int

    public init(
        context: MetricContext, id: SeekID, finished: Bool, landedTime: MediaTime?, didSeekInBuffer: Bool,
        latency: Double, framesDecoded: Int, framesSkipped: Int, framesDiscarded: Int, elapsedTime: Double? = nil
    ) {
        self.elapsedTime = elapsedTime ?? latency
        self.context = context
        self.id = id
        self.finished = finished
        self.landedTime = landedTime
        self.didSeekInBuffer = didSeekInBuffer
        self.latency = latency
        self.framesDecoded = framesDecoded
        self.framesSkipped = framesSkipped
        self.framesDiscarded = framesDiscarded
    }

    public var description: String {
        "seekDidComplete \(id) \(finished)" + (landedTime.map { " at \(fmt($0))" } ?? "")
    }
}
