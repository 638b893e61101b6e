/// A type an option or a positional argument can hold: how its command-line text is read, and how a text that is
/// not one is reported.
///
/// Filling a declared option (`@Option var rate: Double`) converts the text with `init?(argument:)` and, when that
/// fails, throws the usage error `invalid value '<text>' for '<option as typed>': expected <expectedArgument>`.
public protocol ArgumentValue: Sendable {
    /// The value `argument` stands for, or `nil` when it stands for none.
    init?(argument: String)
    /// What a valid text looks like, completing "expected …": `a number`.
    static var expectedArgument: String { get }
    /// When not empty, the only texts the parser accepts for the option (help shows them as `a|b`). Empty by default.
    static var argumentChoices: [String] { get }
    /// The text a usage error quotes for `value`, typed as `typed`, when a `ValueCheck` rejects it: `typed` by
    /// default; integers as read (`-05` is `-5`).
    static func rejectedText(_ value: Self, typed: String) -> String
}

extension ArgumentValue {
    public static var argumentChoices: [String] { [] }
    public static func rejectedText(_ value: Self, typed: String) -> String { typed }
}

extension String: ArgumentValue {
    /// Any text, as typed.
    public init?(argument: String) { self = argument }
    public static var expectedArgument: String { "text" }
}

extension Double: ArgumentValue {
    /// A finite number in Swift's syntax (`1.5`, `-2`, `1e3`); `nan` and `inf` are rejected.
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }

    public static var expectedArgument: String { "a number" }
}

extension Int: ArgumentValue {
    /// A decimal integer that fits `Int` (`42`, `-1`, `+7`, `007`).
    public init?(argument: String) { self.init(argument, radix: 10) }
    public static var expectedArgument: String { "an integer" }
    public static func rejectedText(_ value: Int, typed: String) -> String { String(value) }
}

/// An enumeration whose raw values are its spellings: the parser accepts exactly those, in declaration order.
extension ArgumentValue where Self: CaseIterable & RawRepresentable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var argumentChoices: [String] { allCases.map(\.rawValue) }
    /// `one of a, b, c`, as the parser words a value outside the choices.
    public static var expectedArgument: String { "one of " + argumentChoices.joined(separator: ", ") }
}
