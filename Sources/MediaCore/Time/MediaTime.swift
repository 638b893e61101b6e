/// A rational point or span of media time, like `CMTime`: `value / timescale` seconds.
///
/// Positions are measured from the start of the media (the first frame is at zero), as `ffmpeg -ss` and
/// `mpv --start` measure them. Two flags cover what a plain number cannot say: `invalid` and `indefinite`
/// (an unknown duration, e.g. of a live stream or of an item still loading), and the infinities used as seek tolerances.
public struct MediaTime: Sendable, Hashable {
    /// The numerator.
    public var value: Int64
    /// Units per second (the denominator). Always positive for numeric times.
    public var timescale: Int32
    /// What kind of time this is.
    public var kind: Kind

    public enum Kind: Sendable, Hashable {
        case numeric, invalid, indefinite, positiveInfinity, negativeInfinity
    }

    /// A numeric time of `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive")
        self.value = value
        self.timescale = timescale
        self.kind = .numeric
    }

    /// The nearest time to `seconds` with `preferredTimescale` units per second.
    public init(seconds: Double, preferredTimescale: Int32 = 1_000_000) {
        if seconds.isNaN {
            self = .invalid
            return
        }
        if seconds == .infinity {
            self = .positiveInfinity
            return
        }
        if seconds == -.infinity {
            self = .negativeInfinity
            return
        }
        self.init(value: Int64((seconds * Double(preferredTimescale)).rounded()), timescale: preferredTimescale)
    }

    private init(kind: Kind) {
        self.value = 0
        self.timescale = 1
        self.kind = kind
    }

    public static let zero = MediaTime(value: 0, timescale: 1)
    public static let invalid = MediaTime(kind: .invalid)
    public static let indefinite = MediaTime(kind: .indefinite)
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)

    public var isNumeric: Bool { kind == .numeric }
    public var isValid: Bool { kind != .invalid }
    public var isIndefinite: Bool { kind == .indefinite }

    /// The time in seconds; NaN when invalid or indefinite, ±infinity for the infinities.
    public var seconds: Double {
        switch kind {
        case .numeric: return Double(value) / Double(timescale)
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .invalid, .indefinite: return .nan
        }
    }

    /// This time in another timescale, rounding to the nearest unit (halves away from zero).
    public func convertScale(_ newTimescale: Int32) -> MediaTime {
        guard isNumeric else { return self }
        if newTimescale == timescale { return self }
        return MediaTime(value: Self.rescale(value, Int64(newTimescale), Int64(timescale)), timescale: newTimescale)
    }

    /// `a * b / c` rounded to nearest (halves away from zero), exact for all Int64 inputs that fit the result.
    public static func rescale(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64 {
        let negative = (a < 0) != (b < 0)
        let divisor = c.magnitude
        let product = a.magnitude.multipliedFullWidth(by: b.magnitude)
        let (low, carry) = product.low.addingReportingOverflow(divisor / 2)
        let high = product.high + (carry ? 1 : 0)
        guard high < divisor else { return negative ? .min : .max }
        let quotient = Int64(clamping: divisor.dividingFullWidth((high, low)).quotient)
        return negative ? -quotient : quotient
    }
}

extension MediaTime: Comparable {
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.numeric, .numeric):
            if lhs.timescale == rhs.timescale { return lhs.value < rhs.value }
            let l = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
            let r = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
            return l.high != r.high ? l.high < r.high : l.low < r.low
        default:
            return lhs.order < rhs.order
        }
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        if lhs.kind != rhs.kind { return false }
        guard lhs.kind == .numeric else { return true }
        return !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if kind == .numeric { hasher.combine(seconds) }
    }

    private var order: Int {
        switch kind {
        case .negativeInfinity: return 0
        case .numeric: return 1
        case .positiveInfinity: return 2
        case .indefinite: return 3
        case .invalid: return 4
        }
    }
}

extension MediaTime {
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        guard lhs.isNumeric, rhs.isNumeric else { return lhs.isNumeric ? rhs : lhs }
        if lhs.timescale == rhs.timescale { return MediaTime(value: lhs.value + rhs.value, timescale: lhs.timescale) }
        // Exact in the least common timescale when it fits; otherwise rounded to the finer of the two.
        let a = Int64(lhs.timescale)
        let b = Int64(rhs.timescale)
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        let lcm = a / x * b
        let scale = lcm <= Int64(Int32.max) ? Int32(lcm) : max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.convertScale(scale).value + rhs.convertScale(scale).value, timescale: scale)
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        guard rhs.isNumeric else { return rhs == .positiveInfinity ? .negativeInfinity : .positiveInfinity }
        return lhs + MediaTime(value: -rhs.value, timescale: rhs.timescale)
    }
}

extension MediaTime: CustomStringConvertible {
    public var description: String {
        switch kind {
        case .numeric: return "\(value)/\(timescale)"
        case .invalid: return "invalid"
        case .indefinite: return "indefinite"
        case .positiveInfinity: return "+inf"
        case .negativeInfinity: return "-inf"
        }
    }
}

extension MediaTime {
    /// The latest time a decimal number of seconds, as playctl and ffprobe print times (rounded to the
    /// microsecond), stands for: the microsecond it names plus half a microsecond. A frame at 44182/90000 s prints as
    /// `0.490911`, a little before its real time; seeking to this time selects it, as `ffmpeg -ss` (which rounds to
    /// the nearest tick) does.
    public init(printedSeconds seconds: Double) {
        let microseconds = Int64((min(max(seconds, -1e12), 1e12) * 1_000_000).rounded())
        self.init(value: microseconds * 2 + 1, timescale: 2_000_000)
    }
}
