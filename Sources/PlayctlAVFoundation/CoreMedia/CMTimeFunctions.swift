// swift-format-ignore-file: AlwaysUseLowerCamelCase
// CoreMedia's C functions, under their own names.

/// A valid time of `value / timescale` seconds.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// The nearest time to `seconds` in `preferredTimescale` ticks per second.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// A time with every field given.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    CMTime(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: epoch)
}

/// `time.seconds`.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

/// `lhs + rhs`.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs + rhs }

/// `lhs - rhs`.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime { lhs - rhs }

/// `time * multiplier`.
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime { time * multiplier }

/// `time * multiplier`.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime { time * multiplier }

/// -1, 0 or 1 as `time1` is earlier than, equal to or later than `time2` (see ``CMTime`` for the order of
/// non-numeric times).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 { CMTime.compare(time1, time2) }

/// The earlier of two times.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime { min(time1, time2) }

/// The later of two times.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime { max(time1, time2) }

/// The time without its sign.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime { time < .zero ? -time : time }

/// `time.convertScale(newTimescale, method: method)`.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

/// A range from `start` lasting `duration`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// A range from `start` to `end`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange { CMTimeRange(start: start, end: end) }

/// `range.end`.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }

/// `range.containsTime(time)`.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool { range.containsTime(time) }

/// Whether `time` is valid.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool { time.isValid }
/// Whether `time` is invalid.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool { !time.isValid }
/// Whether `time` is numeric.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool { time.isNumeric }
/// Whether `time` is indefinite.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool { time.isIndefinite }
/// Whether `time` is positive infinity.
public func CMTIME_IS_POSITIVE_INFINITY(_ time: CMTime) -> Bool { time.isPositiveInfinity }
/// Whether `time` is negative infinity.
public func CMTIME_IS_NEGATIVE_INFINITY(_ time: CMTime) -> Bool { time.isNegativeInfinity }

/// `CMTime.zero`.
public let kCMTimeZero = CMTime.zero
/// `CMTime.invalid`.
public let kCMTimeInvalid = CMTime.invalid
/// `CMTime.indefinite`.
public let kCMTimeIndefinite = CMTime.indefinite
/// `CMTime.positiveInfinity`.
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// `CMTime.negativeInfinity`.
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
/// `CMTimeRange.zero`.
public let kCMTimeRangeZero = CMTimeRange.zero
/// `CMTimeRange.invalid`.
public let kCMTimeRangeInvalid = CMTimeRange.invalid
