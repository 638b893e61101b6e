/// A span of time, as CoreMedia's `CMTimeRange`: it starts at `start`, lasts `duration`, and holds the times from
/// `start` up to, but not including, `end`.
public struct CMTimeRange: Sendable, Hashable {
    /// The first time in the range.
    public var start: CMTime
    /// How long it lasts.
    public var duration: CMTime

    /// A range from `start` lasting `duration`.
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// A range from `start` to `end` (its duration is `end - start`).
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    /// From zero, lasting zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// Not a range.
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

    /// `start + duration`.
    public var end: CMTime { start + duration }
    /// Whether both times are valid and the duration is not negative (nor its epoch set).
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && duration >= .zero
    }
    /// Whether the range is valid and lasts zero.
    public var isEmpty: Bool { isValid && duration == .zero }
    /// Whether the range is valid and its start or duration is indefinite.
    public var isIndefinite: Bool { isValid && (start.isIndefinite || duration.isIndefinite) }

    /// Whether `time` lies in the range: `start <= time < end`, as `CMTimeRangeContainsTime`.
    public func containsTime(_ time: CMTime) -> Bool {
        isValid && time.isValid && time >= start && time < end
    }

    /// Whether `range` lies wholly in this range.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        isValid && range.isValid && range.start >= start && range.end <= end
    }

    /// The times in both ranges (an empty range at the later start when they do not overlap).
    public func intersection(_ other: CMTimeRange) -> CMTimeRange {
        let start = max(self.start, other.start)
        let end = min(self.end, other.end)
        return end > start ? CMTimeRange(start: start, end: end) : CMTimeRange(start: start, duration: .zero)
    }

    /// The smallest range that holds both.
    public func union(_ other: CMTimeRange) -> CMTimeRange {
        CMTimeRange(start: min(start, other.start), end: max(end, other.end))
    }
}

extension CMTimeRange: CustomStringConvertible {
    /// `"[0.000, 6.000)"`.
    public var description: String {
        guard isValid else { return "CMTimeRange(invalid)" }
        return String(format: "[%.3f, %.3f)", start.seconds, end.seconds)
    }
}
