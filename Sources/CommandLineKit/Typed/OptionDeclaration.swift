/// A typed declaration of one option: the `OptionSpec` the parser and help use, and the type its value is read as.
///
/// A command declares each of its options once, as a static property holding a `Flag`, an `Option` or a
/// `RepeatableOption`, lists them in its `CommandSpec` (which sets the order help shows them in), and reads them
/// back with `ParsedArguments`' subscripts, which return the declared type. The option's name is written only in
/// its declaration.
public protocol OptionDeclaration: Sendable {
    /// The option as the parser and help see it.
    var spec: OptionSpec { get }
}

/// A flag: present or absent (`--json`). Reads as a `Bool`.
public struct Flag: OptionDeclaration {
    public let spec: OptionSpec

    /// A flag spelled `--<name>` (and `-<short>`). A required flag names a mode that must be stated explicitly.
    public init(_ name: String, short: Character? = nil, help: String, required: Bool = false) {
        spec = .flag(name, short: short, help: help, required: required)
    }
}

/// An option taking one value, at most once (`--at SECONDS`). Reads as `Value?`: `nil` when absent.
///
/// When `Value` lists choices (an enumeration of spellings), the parser accepts only those and help shows them as
/// the placeholder unless one is given.
public struct Option<Value: ArgumentValue>: OptionDeclaration {
    public let spec: OptionSpec

    /// An option spelled `--<name> <placeholder>` (and `-<short>`); without a placeholder, help shows the choices
    /// joined by `|`, or `VALUE`. A required option makes parsing fail when it is absent.
    public init(
        _ name: String, short: Character? = nil, placeholder: String? = nil, help: String, required: Bool = false
    ) {
        spec = .value(
            name, short: short, placeholder: placeholder, help: help, required: required,
            choices: Value.argumentChoices)
    }
}

/// An option taking one value per occurrence, as many times as given (`--seek SEC[@AT]`). Reads as `[Value]`, in
/// command-line order; empty when absent.
public struct RepeatableOption<Value: ArgumentValue>: OptionDeclaration {
    public let spec: OptionSpec

    /// A repeatable option spelled `--<name> <placeholder>` (and `-<short>`).
    public init(_ name: String, short: Character? = nil, placeholder: String? = nil, help: String) {
        spec = .repeatable(name, short: short, placeholder: placeholder, help: help, choices: Value.argumentChoices)
    }
}

/// A typed declaration of one positional argument: the `PositionalSpec` the parser and help use.
public protocol ArgumentDeclaration: Sendable {
    /// The argument as the parser and help see it.
    var spec: PositionalSpec { get }
}

/// A required positional argument (`FILE`). Reads as `Value`.
public struct Argument<Value: ArgumentValue>: ArgumentDeclaration {
    public let spec: PositionalSpec

    /// A positional argument shown as `name` (conventionally upper case) with `help`.
    public init(_ name: String, help: String) {
        spec = PositionalSpec(name, help: help)
    }
}

/// An optional positional argument (`[SOURCE]`), for a command that takes it or an option instead. Reads as
/// `String?`.
public struct OptionalArgument: ArgumentDeclaration {
    public let spec: PositionalSpec

    /// An optional positional argument shown as `[name]` with `help`.
    public init(_ name: String, help: String) {
        spec = PositionalSpec(name, help: help, arity: .optional)
    }
}
