/// Units of a ``CMTime``'s value: a count of ticks.
public typealias CMTimeValue = Int64
/// Ticks per second of a ``CMTime``.
public typealias CMTimeScale = Int32
/// Distinguishes unrelated timelines: times of different epochs are not comparable by their values.
public typealias CMTimeEpoch = Int64

/// The largest timescale a ``CMTime`` may have.
public let kCMTimeMaxTimescale: CMTimeScale = 0x7fff_ffff

/// What kind of time a ``CMTime`` is, as CoreMedia's `CMTimeFlags`.
public struct CMTimeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The time is valid (every time but ``CMTime/invalid``).
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded when the time was converted or computed.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// Positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// Negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// Not known (a live stream's duration, an item's duration before it loads).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// Every flag that makes a valid time non-numeric.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// A rational time, `value / timescale` seconds, with CoreMedia's layout and semantics.
///
/// Comparison follows `CMTimeCompare`: negative infinity < numeric times < indefinite < positive infinity < invalid,
/// and numeric times compare by their value in seconds, whatever their timescales (1/2 == 2/4).
public struct CMTime: Sendable {
    /// Ticks.
    public var value: CMTimeValue
    /// Ticks per second.
    public var timescale: CMTimeScale
    /// Validity and the kind of non-numeric time.
    public var flags: CMTimeFlags
    /// The timeline the time belongs to (0 for most uses).
    public var epoch: CMTimeEpoch

    /// Every field as given.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// A valid numeric time of `value / timescale` seconds (invalid when `timescale` is not positive).
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: timescale > 0 ? .valid : [], epoch: 0)
    }

    /// The nearest time to `seconds` in `preferredTimescale` ticks per second (NaN gives ``invalid``, the
    /// infinities ``positiveInfinity`` and ``negativeInfinity``).
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
        } else if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
        } else {
            let scaled = (seconds * Double(preferredTimescale)).rounded()
            if scaled >= 9.2e18 || scaled <= -9.2e18 {
                self = scaled > 0 ? .positiveInfinity : .negativeInfinity
            } else {
                let value = CMTimeValue(scaled)
                let exact = Double(value) / Double(preferredTimescale) == seconds
                self.init(
                    value: value, timescale: preferredTimescale, flags: exact ? .valid : [.valid, .hasBeenRounded],
                    epoch: 0)
            }
        }
    }

    /// 0/1.
    public static let zero = CMTime(value: 0, timescale: 1)
    /// Not a time.
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// An unknown time.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// Later than every numeric time.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Earlier than every numeric time.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// Whether the time is valid.
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether the time is valid and a number of seconds (not an infinity, not indefinite).
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    /// Whether the time is valid and indefinite.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether the time is valid and positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether the time is valid and negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether the value was rounded.
    public var hasBeenRounded: Bool { flags.contains(.hasBeenRounded) }

    /// The time in seconds: NaN when invalid or indefinite, ±infinity for the infinities.
    public var seconds: Double {
        if isNumeric { return Double(value) / Double(timescale) }
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        return .nan
    }

    /// This time in `newTimescale` ticks per second, rounded by `method`.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        guard isNumeric, newTimescale > 0 else { return isNumeric ? .invalid : self }
        if newTimescale == timescale { return self }
        let (scaled, exact) = CMTime.rescale(value, CMTimeValue(newTimescale), CMTimeValue(timescale), method)
        guard let scaled else { return value > 0 ? .positiveInfinity : .negativeInfinity }
        var flags = self.flags
        if !exact { flags.insert(.hasBeenRounded) }
        return CMTime(value: scaled, timescale: newTimescale, flags: flags, epoch: epoch)
    }
}

/// How a conversion to another timescale rounds, as CoreMedia's `CMTimeRoundingMethod`.
public enum CMTimeRoundingMethod: UInt32, Sendable, Hashable {
    /// Halves away from zero.
    case roundHalfAwayFromZero = 1
    /// Toward zero (truncation).
    case roundTowardZero = 2
    /// Away from zero.
    case roundAwayFromZero = 3
    /// Fails (gives an invalid time) unless the conversion is exact.
    case quickTime = 4
    /// Toward positive infinity.
    case roundTowardPositiveInfinity = 5
    /// Toward negative infinity.
    case roundTowardNegativeInfinity = 6

    /// CoreMedia's default: halves away from zero.
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

extension CMTime {
    /// `a * b / c` rounded by `method` (`c` > 0, `b` > 0); nil when it does not fit, and whether it was exact.
    static func rescale(_ a: Int64, _ b: Int64, _ c: Int64, _ method: CMTimeRoundingMethod) -> (Int64?, Bool) {
        let product = a.magnitude.multipliedFullWidth(by: b.magnitude)
        let divisor = c.magnitude
        guard product.high < divisor else { return (nil, false) }
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let negative = a < 0
        var magnitude = quotient
        if remainder != 0 {
            let awayFromZero: Bool
            switch method {
            case .roundHalfAwayFromZero, .quickTime: awayFromZero = remainder >= divisor - remainder
            case .roundTowardZero: awayFromZero = false
            case .roundAwayFromZero: awayFromZero = true
            case .roundTowardPositiveInfinity: awayFromZero = !negative
            case .roundTowardNegativeInfinity: awayFromZero = negative
            }
            if awayFromZero { magnitude += 1 }
        }
        guard magnitude <= UInt64(Int64.max) else { return (nil, false) }
        let result = negative ? -Int64(magnitude) : Int64(magnitude)
        return (result, remainder == 0)
    }
}
