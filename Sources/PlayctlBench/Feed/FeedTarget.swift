import PlayctlOutput

/// One figure of a feed benchmark held to a bound: met when the value is at most the bound.
public struct FeedTarget: Sendable {
    /// How the value and the bound read.
    public enum Unit: String, Sendable {
        /// Seconds, shown as milliseconds.
        case seconds
        /// A ratio of two figures, shown as `0.912x`.
        case ratio
        /// A fraction, shown as a percentage.
        case fraction
        /// Bytes, shown in MB (MiB).
        case bytes
        /// A count.
        case count
    }

    /// A short key for JSON (`preparedFirstFrameP95`).
    public var key: String
    /// What is measured, for the table.
    public var name: String
    /// Nil when it could not be measured (no such swipes).
    public var value: Double?
    public var bound: Double
    public var unit: Unit

    /// Met when measured and at most the bound.
    public var met: Bool { value.map { $0 <= bound } ?? false }

    /// `12.3 ms (target <= 33.0 ms: met)`.
    public var verdict: String {
        guard let value else { return "n/a (target <= \(Self.text(bound, unit)): not measured)" }
        return Self.text(value, unit) + " (target <= " + Self.text(bound, unit) + ": " + (met ? "met" : "NOT met") + ")"
    }

    /// `value` in `unit`.
    static func text(_ value: Double, _ unit: Unit) -> String {
        switch unit {
        case .seconds: return BenchText.milliseconds(value)
        case .ratio: return BenchText.fixed(value, 3) + "x"
        case .fraction: return BenchText.fixed(value * 100, 2) + "%"
        case .bytes: return BenchText.fixed(value / Double(1 << 20), 2) + " MB"
        case .count: return BenchText.fixed(value, 0)
        }
    }

    /// `{"key", "name", "value", "target", "unit", "met"}`.
    var json: JSONValue {
        .object([
            ("key", .string(key)), ("name", .string(name)), ("value", value.map(JSONValue.double) ?? .null),
            ("target", .double(bound)), ("unit", .string(unit.rawValue)), ("met", .bool(met)),
        ])
    }
}
