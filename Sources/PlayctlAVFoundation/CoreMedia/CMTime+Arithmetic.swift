/// `CMTimeCompare`'s order and `CMTimeAdd`'s rules as operators.
extension CMTime: Comparable, Hashable {
    /// CoreMedia's rank of non-numeric times: -inf < numeric < indefinite < +inf < invalid.
    private var rank: Int {
        if !isValid { return 4 }
        if isPositiveInfinity { return 3 }
        if isIndefinite { return 2 }
        if isNegativeInfinity { return 0 }
        return 1
    }

    /// -1, 0 or 1, as `CMTimeCompare`.
    static func compare(_ lhs: CMTime, _ rhs: CMTime) -> Int32 {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank ? -1 : 1 }
        guard lhs.rank == 1 else { return 0 }
        if lhs.epoch != rhs.epoch { return lhs.epoch < rhs.epoch ? -1 : 1 }
        if lhs.timescale == rhs.timescale { return lhs.value == rhs.value ? 0 : (lhs.value < rhs.value ? -1 : 1) }
        let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        if left.high != right.high { return left.high < right.high ? -1 : 1 }
        if left.low != right.low { return left.low < right.low ? -1 : 1 }
        return 0
    }

    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) < 0 }
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { compare(lhs, rhs) == 0 }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        if rank == 1 {
            hasher.combine(epoch)
            hasher.combine(seconds)
        }
    }

    /// `CMTimeAdd`: invalid if either is invalid (or +inf + -inf, or the epochs differ); indefinite if either is;
    /// an infinity if either is; otherwise exact in the operands' least common timescale (the largest timescale,
    /// rounded, when that exceeds ``kCMTimeMaxTimescale``).
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime {
        if !lhs.isValid || !rhs.isValid { return .invalid }
        if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
        if (lhs.isPositiveInfinity && rhs.isNegativeInfinity) || (lhs.isNegativeInfinity && rhs.isPositiveInfinity) {
            return .invalid
        }
        if lhs.isPositiveInfinity || rhs.isPositiveInfinity { return .positiveInfinity }
        if lhs.isNegativeInfinity || rhs.isNegativeInfinity { return .negativeInfinity }
        if lhs.epoch != rhs.epoch { return .invalid }
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        let a = lhs.convertScale(scale, method: .default)
        let b = rhs.convertScale(scale, method: .default)
        guard a.isNumeric, b.isNumeric else { return a.isNumeric ? b : a }
        let (sum, overflow) = a.value.addingReportingOverflow(b.value)
        if overflow { return a.value > 0 ? .positiveInfinity : .negativeInfinity }
        var flags: CMTimeFlags = .valid
        if a.hasBeenRounded || b.hasBeenRounded { flags.insert(.hasBeenRounded) }
        return CMTime(value: sum, timescale: scale, flags: flags, epoch: lhs.epoch)
    }

    /// `CMTimeSubtract`: `lhs + (-rhs)`.
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { lhs + (-rhs) }

    /// The negated time (the infinities swap; invalid and indefinite stay).
    public static prefix func - (time: CMTime) -> CMTime {
        if time.isPositiveInfinity { return .negativeInfinity }
        if time.isNegativeInfinity { return .positiveInfinity }
        guard time.isNumeric else { return time }
        return CMTime(value: -time.value, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
    }

    public static func += (lhs: inout CMTime, rhs: CMTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = lhs - rhs }

    /// `CMTimeMultiply`: the value times `multiplier`, same timescale.
    public static func * (time: CMTime, multiplier: Int32) -> CMTime {
        guard time.isNumeric else { return multiplier < 0 ? -time : time }
        let (product, overflow) = time.value.multipliedReportingOverflow(by: Int64(multiplier))
        if overflow { return (time.value < 0) == (multiplier < 0) ? .positiveInfinity : .negativeInfinity }
        return CMTime(value: product, timescale: time.timescale, flags: time.flags, epoch: time.epoch)
    }

    /// `CMTimeMultiplyByFloat64`: the time times `multiplier`, same timescale, rounded.
    public static func * (time: CMTime, multiplier: Float64) -> CMTime {
        guard time.isNumeric else { return multiplier < 0 ? -time : time }
        var result = CMTime(seconds: time.seconds * multiplier, preferredTimescale: time.timescale)
        result.epoch = time.epoch
        return result
    }

    /// The least common multiple of two timescales, or the larger one when that exceeds the maximum.
    private static func commonTimescale(_ a: CMTimeScale, _ b: CMTimeScale) -> CMTimeScale {
        if a == b { return a }
        var (x, y) = (Int64(a), Int64(b))
        while y != 0 { (x, y) = (y, x % y) }
        let lcm = Int64(a) / x * Int64(b)
        return lcm <= Int64(kCMTimeMaxTimescale) ? CMTimeScale(lcm) : max(a, b)
    }
}

extension CMTime: CustomStringConvertible {
    /// `"CMTime(1/2 = 0.500)"`, `"CMTime(invalid)"`, `"CMTime(indefinite)"`, `"CMTime(+inf)"`.
    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isIndefinite { return "CMTime(indefinite)" }
        if isPositiveInfinity { return "CMTime(+inf)" }
        if isNegativeInfinity { return "CMTime(-inf)" }
        return "CMTime(\(value)/\(timescale) = \(String(format: "%.3f", seconds)))"
    }
}
