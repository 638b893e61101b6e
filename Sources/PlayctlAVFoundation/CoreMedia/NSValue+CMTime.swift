import Foundation

/// `NSValue(time:)` and `NSValue(timeRange:)`, for boundary time observers (`[NSValue]`) and time ranges.
///
/// Linux Foundation's `NSValue` cannot hold a C struct by its Objective-C type encoding (`{?=qiIq}` traps there), so
/// these store the same bytes as an array of 64-bit integers (`objCType` is `[3q]` or `[6q]`); `timeValue` and
/// `timeRangeValue` read them back, and equality compares the bytes, as on Apple platforms.
extension NSValue {
    /// A value holding `time`.
    public convenience init(time: CMTime) {
        var time = time
        self.init(bytes: &time, objCType: "[3q]")
    }

    /// A value holding `timeRange`.
    public convenience init(timeRange: CMTimeRange) {
        var range = timeRange
        self.init(bytes: &range, objCType: "[6q]")
    }

    /// The time a value made with `init(time:)` holds (``CMTime/invalid`` for any other value).
    public var timeValue: CMTime {
        guard String(cString: objCType) == "[3q]" else { return .invalid }
        var time = CMTime.invalid
        getValue(&time)
        return time
    }

    /// The range a value made with `init(timeRange:)` holds (``CMTimeRange/invalid`` for any other value).
    public var timeRangeValue: CMTimeRange {
        guard String(cString: objCType) == "[6q]" else { return .invalid }
        var range = CMTimeRange.invalid
        getValue(&range)
        return range
    }
}
