import Foundation
import Streaming

/// An adaptive item (HLS, DASH) decided to take its segments from another variant, or made its first choice
/// (like `AVMetricPlayerItemVariantSwitchStartEvent`, reported when the player attempts the switch). Its outcome
/// follows as a ``VariantSwitchEvent`` with the same ``from``, ``to`` and ``segmentIndex``.
///
/// playctl decides a variant per segment, at a segment boundary, when the segment is downloaded ahead or read: the
/// switch is attempted then, and takes effect when the player's reader gets to that segment.
public struct VariantSwitchStartEvent: MetricEvent, Equatable {
    public static let name = "metric.variantSwitchStart"
    public let context: MetricContext
    /// The variant segments came from before; nil for the first choice.
    public let from: Variant?
    /// The variant chosen.
    public let to: Variant
    /// The first segment from ``to``: its index in the rendition's list, and where it starts in seconds.
    public let segmentIndex: Int
    public let seconds: Double
    /// Why, in a word: `initial`, `bandwidthUp`, `bandwidthDown`, `bufferLow`, `stall`, `limits`, `pinned`.
    public let reason: String
    /// The bandwidth estimate it was decided with, in bits per second (nil before any download).
    public let estimate: Double?
    /// The media time ranges loaded when it was reported: the time spans of the segments downloaded or read (for a
    /// choice made while the item loaded, reported once it is ready, those of then).
    public let loadedTimeRanges: [TimeRange]

    public init(context: MetricContext, change: VariantSwitch, loadedTimeRanges: [TimeRange]) {
        self.context = context
        self.from = change.from
        self.to = change.to
        self.segmentIndex = change.segmentIndex
        self.seconds = change.seconds
        self.reason = change.reason
        self.estimate = change.estimate
        self.loadedTimeRanges = loadedTimeRanges
    }

    /// The decision as the stream session reported it (the `.variantSwitch` player event's value).
    public var variantSwitch: VariantSwitch {
        VariantSwitch(
            from: from, to: to, segmentIndex: segmentIndex, seconds: seconds, reason: reason, estimate: estimate)
    }

    public var description: String {
        "variantSwitchStart \(from?.id ?? "-") -> \(to.id) at segment \(segmentIndex) (\(reason))"
    }
}

/// A variant switch (or first choice) attempted by a ``VariantSwitchStartEvent`` ended (like
/// `AVMetricPlayerItemVariantSwitchEvent`, reported when the player completes the switch).
///
/// It succeeded when the player's reader entered a segment of ``to`` (the new variant's bytes go to the demuxer; it
/// is shown once the frames decoded before it are), reported then. It failed when the reader entered a segment at
/// or past ``segmentIndex`` of another variant (a later decision replaced it: a stall, new limits, a seek), or when
/// the session ended before the reader got there (reported then).
public struct VariantSwitchEvent: MetricEvent, Equatable {
    public static let name = "metric.variantSwitch"
    public let context: MetricContext
    /// The variant before, as its start event has it; nil for the first choice.
    public let from: Variant?
    /// The variant chosen.
    public let to: Variant
    /// The first segment decided from ``to``, and where it starts in seconds (as the start event has them).
    public let segmentIndex: Int
    public let seconds: Double
    /// Why it was decided, and the bandwidth estimate it was decided with (bits per second).
    public let reason: String
    public let estimate: Double?
    /// The media time ranges loaded when it ended (the time spans of the segments downloaded or read).
    public let loadedTimeRanges: [TimeRange]
    /// True when segments of ``to`` are being read; false when it was replaced or the session ended first.
    public let didSucceed: Bool

    public init(context: MetricContext, change: VariantSwitch, loadedTimeRanges: [TimeRange], didSucceed: Bool) {
        self.context = context
        self.from = change.from
        self.to = change.to
        self.segmentIndex = change.segmentIndex
        self.seconds = change.seconds
        self.reason = change.reason
        self.estimate = change.estimate
        self.loadedTimeRanges = loadedTimeRanges
        self.didSucceed = didSucceed
    }

    /// The decision as the stream session reported it (the `.variantSwitch` player event's value).
    public var variantSwitch: VariantSwitch {
        VariantSwitch(
            from: from, to: to, segmentIndex: segmentIndex, seconds: seconds, reason: reason, estimate: estimate)
    }

    public var description: String {
        "variantSwitch \(from?.id ?? "-") -> \(to.id) at segment \(segmentIndex) "
            + (didSucceed ? "succeeded" : "failed")
    }
}
