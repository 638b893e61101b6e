import Foundation
import Streaming

/// An adaptive item (HLS, DASH) decided to take its segments from another variant, or made its first choice
/// (like `AVMetricPlayerItemVariantSwitchStartEvent`, reported when the player attempts the switch). Its outcome
/// follows as a ``VariantSwitchEvent`` with the same ``from``, ``to`` and ``segmentIndex``.
///
/// playctl decides a variant per segment, at a segment boundary, when the segment is downloaded ahead or read: the
/// switch is attempted then, and takes effect when the player's reader gets to that segment.
public struct VariantSwitchStartEvent: VariantSwitchMetric, Equatable {
    public static let name = "metric.variantSwitchStart"
    public let context: MetricContext
    /// The decision as the stream session reported it (the `.variantSwitch` player event's value).
    public let variantSwitch: VariantSwitch
    /// The media time ranges loaded when it was reported: the time spans of the segments downloaded or read (for a
    /// choice made while the item loaded, reported once it is ready, those of then).
    public let loadedTimeRanges: [TimeRange]

    public init(context: MetricContext, change: VariantSwitch, loadedTimeRanges: [TimeRange]) {
        self.context = context
        self.variantSwitch = change
        self.loadedTimeRanges = loadedTimeRanges
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
public struct VariantSwitchEvent: VariantSwitchMetric, Equatable {
    public static let name = "metric.variantSwitch"
    public let context: MetricContext
    /// The decision, as its start event has it.
    public let variantSwitch: VariantSwitch
    /// The media time ranges loaded when it ended (the time spans of the segments downloaded or read).
    public let loadedTimeRanges: [TimeRange]
    /// True when segments of ``to`` are being read; false when it was replaced or the session ended first.
    public let didSucceed: Bool

    public init(context: MetricContext, change: VariantSwitch, loadedTimeRanges: [TimeRange], didSucceed: Bool) {
        self.context = context
        self.variantSwitch = change
        self.loadedTimeRanges = loadedTimeRanges
        self.didSucceed = didSucceed
    }

    public var description: String {
        "variantSwitch \(from?.id ?? "-") -> \(to.id) at segment \(segmentIndex) "
            + (didSucceed ? "succeeded" : "failed")
    }
}

/// What the two variant switch metric events share: the decision, and its parts by name.
public protocol VariantSwitchMetric: MetricEvent {
    /// The decision as the stream session reported it (the `.variantSwitch` player event's value).
    var variantSwitch: VariantSwitch { get }
}

extension VariantSwitchMetric {
    /// The variant segments came from before; nil for the first choice.
    public var from: Variant? { variantSwitch.from }
    /// The variant chosen.
    public var to: Variant { variantSwitch.to }
    /// The first segment from ``to``: its index in the rendition's list.
    public var segmentIndex: Int { variantSwitch.segmentIndex }
    /// Where that segment starts, in seconds.
    public var seconds: Double { variantSwitch.seconds }
    /// Why, in a word: `initial`, `bandwidthUp`, `bandwidthDown`, `bufferLow`, `downloadAbandoned`, `stall`,
    /// `limits`, `pinned`.
    public var reason: String { variantSwitch.reason }
    /// The bandwidth estimate it was decided with, in bits per second (nil before any download).
    public var estimate: Double? { variantSwitch.estimate }
}
