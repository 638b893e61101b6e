/// A check of a converted value, declared with its option (`@Option(check: .range(0.25...4, "a rate from 0.25 to
/// 4"))`): a value outside it is a usage error, reported when the option is read, in declaration order.
public struct ValueCheck<Value: Sendable>: Sendable {
    /// What a valid value is, completing "expected ...".
    public let expected: String
    let accepts: @Sendable (Value) -> Bool

    /// A check by `accepts`, worded by `expected`.
    public init(expected: String, accepts: @escaping @Sendable (Value) -> Bool) {
        self.expected = expected
        self.accepts = accepts
    }

    /// Values within `range`.
    public static func range(_ range: ClosedRange<Value>, _ expected: String) -> ValueCheck
    where Value: Comparable {
        ValueCheck(expected: expected) { range.contains($0) }
    }

    /// Values of `least` or more.
    public static func atLeast(_ least: Value, _ expected: String) -> ValueCheck where Value: Comparable {
        ValueCheck(expected: expected) { $0 >= least }
    }
}
