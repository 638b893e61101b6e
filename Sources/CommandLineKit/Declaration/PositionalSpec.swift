/// Declares one positional argument of a command, such as `FILE`.
///
/// Positionals are filled in declaration order. Declare required ones first, then optional ones; a variadic
/// positional, if any, comes last and takes every remaining argument. `ToolSpec.validate()` reports other orders.
public struct PositionalSpec: Sendable, Equatable {
    /// How many values a positional takes.
    public enum Arity: Sendable, Equatable {
        /// Exactly one value; parsing fails with `UsageError.Kind.missingArgument` without it.
        case required
        /// Zero or one value.
        case optional
        /// Zero or more values; only valid for the last positional.
        case variadic
    }

    /// The name shown in help and messages, conventionally upper case (`FILE`).
    public var name: String
    /// One or two sentences shown in the command's help.
    public var help: String
    /// How many values the positional takes.
    public var arity: Arity

    /// Creates a positional argument; required unless `arity` says otherwise.
    public init(_ name: String, help: String, arity: Arity = .required) {
        self.name = name
        self.help = help
        self.arity = arity
    }

    /// The positional as it appears in a usage line: `FILE`, `[FILE]` or `[FILE...]`.
    public var usageFragment: String {
        switch arity {
        case .required: name
        case .optional: "[" + name + "]"
        case .variadic: "[" + name + "...]"
        }
    }
}
