import Playback

extension CMTime {
    /// The same time as playctl's `MediaTime` (same value and timescale; the non-numeric kinds map one to one).
    public init(_ time: MediaTime) {
        switch time.kind {
        case .numeric: self.init(value: time.value, timescale: time.timescale)
        case .invalid: self = .invalid
        case .indefinite: self = .indefinite
        case .positiveInfinity: self = .positiveInfinity
        case .negativeInfinity: self = .negativeInfinity
        }
    }

    /// The same time as playctl's `MediaTime` (the epoch is dropped).
    public var mediaTime: MediaTime {
        if !isValid { return .invalid }
        if isIndefinite { return .indefinite }
        if isPositiveInfinity { return .positiveInfinity }
        if isNegativeInfinity { return .negativeInfinity }
        return MediaTime(value: value, timescale: timescale)
    }
}

extension MediaTime {
    /// The same time as a ``CMTime``.
    public init(_ time: CMTime) { self = time.mediaTime }
}

extension CMTimeRange {
    /// The same range as playctl's `TimeRange`.
    public init(_ range: TimeRange) { self.init(start: CMTime(range.start), duration: CMTime(range.duration)) }

    /// The same range as playctl's `TimeRange`.
    public var timeRange: TimeRange { TimeRange(start: start.mediaTime, duration: duration.mediaTime) }
}
