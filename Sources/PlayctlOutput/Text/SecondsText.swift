import MediaCore

/// Times as the commands print them: seconds with exactly six decimals (`8.300000`, `-0.007000`), computed from the
/// rational time so that no binary rounding creeps in.
public enum SecondsText {
    /// `time` in seconds, rounded to the nearest microsecond (halves away from zero), with six decimals.
    /// Non-numeric times print as `nan`, `inf` or `-inf`.
    public static func format(_ time: MediaTime) -> String {
        switch time.kind {
        case .numeric: return format(microseconds: time.convertScale(1_000_000).value)
        case .positiveInfinity: return "inf"
        case .negativeInfinity: return "-inf"
        case .invalid, .indefinite: return "nan"
        }
    }

    /// A whole number of microseconds as seconds with six decimals.
    public static func format(microseconds: Int64) -> String {
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        let padding = String(repeating: "0", count: 6 - fraction.count)
        return (microseconds < 0 ? "-" : "") + String(magnitude / 1_000_000) + "." + padding + fraction
    }

    /// `seconds` with six decimals, rounded to the nearest microsecond.
    public static func format(seconds: Double) -> String {
        guard seconds.isFinite else { return seconds.isNaN ? "nan" : (seconds > 0 ? "inf" : "-inf") }
        guard seconds.magnitude < 9e12 else { return String(seconds) }
        return format(microseconds: Int64((seconds * 1_000_000).rounded()))
    }
}
