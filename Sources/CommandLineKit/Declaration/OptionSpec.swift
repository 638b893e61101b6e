/// Declares one named option of a command: a flag, a single-valued option or a repeatable valued option.
///
/// Every option has a long spelling `--name`; it may also have a one-letter short alias (`-o`).
/// Values are accepted as `--name VALUE`, `--name=VALUE`, `-o VALUE`, `-o=VALUE` and `-oVALUE`.
public struct OptionSpec: Sendable, Equatable {
    /// How an option consumes values.
    public enum Kind: Sendable, Equatable {
        /// Present or absent; takes no value (`--json`).
        case flag
        /// Takes one value and may be given at most once (`--at 1.5`).
        case value
        /// Takes one value per occurrence and may be given many times; the order is kept (`--seek 2 --seek 5@1`).
        case repeatable
    }

    /// The canonical name: the long spelling without its dashes, and the key for `ParsedArguments` accessors.
    public var name: String
    /// An optional one-letter alias, spelled `-<short>`.
    public var short: Character?
    /// Whether the option is a flag or takes values.
    public var kind: Kind
    /// The value placeholder shown in help (`SECONDS`); empty for flags.
    public var placeholder: String
    /// One or two sentences shown in the command's help.
    public var help: String
    /// Whether parsing fails with `UsageError.Kind.missingOption` when the option is absent.
    public var isRequired: Bool
    /// When not empty, the only values the parser accepts for this option.
    public var choices: [String]

    /// Creates an option from all of its parts; the static factories `flag`, `value` and `repeatable` read better.
    public init(
        name: String, short: Character? = nil, kind: Kind, placeholder: String = "", help: String,
        isRequired: Bool = false, choices: [String] = []
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.placeholder = placeholder
        self.help = help
        self.isRequired = isRequired
        self.choices = choices
    }

    /// A flag such as `--json`. A required flag (`frames --md5`) names a mode that must be stated explicitly.
    public static func flag(
        _ name: String, short: Character? = nil, help: String, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, help: help, isRequired: required)
    }

    /// An option taking one value, given at most once, such as `--at SECONDS`.
    ///
    /// Without a placeholder, help shows the choices joined by `|`, or `VALUE`.
    public static func value(
        _ name: String, short: Character? = nil, placeholder: String? = nil, help: String,
        required: Bool = false, choices: [String] = []
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, kind: .value,
            placeholder: placeholder ?? defaultPlaceholder(choices: choices),
            help: help, isRequired: required, choices: choices)
    }

    /// An option taking one value per occurrence that may be repeated, such as `--seek SEC[@AT]`.
    public static func repeatable(
        _ name: String, short: Character? = nil, placeholder: String? = nil, help: String,
        choices: [String] = []
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, kind: .repeatable,
            placeholder: placeholder ?? defaultPlaceholder(choices: choices),
            help: help, choices: choices)
    }

    /// Whether the option consumes a value.
    public var takesValue: Bool { kind != .flag }

    /// `--name`.
    public var longSpelling: String { "--" + name }

    /// `-x` when the option has a short alias.
    public var shortSpelling: String? { short.map { "-" + String($0) } }

    /// The spelling used in usage lines and in messages that do not quote the user: the short alias when there is
    /// one (`-o`), else the long spelling.
    public var preferredSpelling: String { shortSpelling ?? longSpelling }

    /// The option as it appears in a usage line: `--at SECONDS`, `-o OUT.png`, `--json`.
    public var usageFragment: String {
        takesValue ? preferredSpelling + " " + placeholder : preferredSpelling
    }

    /// The option as it appears in the options list of help: `-o, --output OUT.png`.
    public var helpLabel: String {
        var label = shortSpelling.map { $0 + ", " } ?? ""
        label += longSpelling
        if takesValue { label += " " + placeholder }
        return label
    }

    /// Whether `identifier` names this option: its canonical name or its short alias letter.
    public func isNamed(_ identifier: String) -> Bool {
        if identifier == name { return true }
        if let short, identifier == String(short) { return true }
        return false
    }

    private static func defaultPlaceholder(choices: [String]) -> String {
        choices.isEmpty ? "VALUE" : choices.joined(separator: "|")
    }
}
