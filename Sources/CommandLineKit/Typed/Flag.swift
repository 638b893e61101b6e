/// Declares a flag of a command as a property: `@Flag(help: "...") var json: Bool`, true when given.
///
/// The name is the property's, words joined by dashes (`noAudio`: `--no-audio`), unless `name` gives one. A
/// required flag names a mode that must be stated explicitly.
@propertyWrapper
public struct Flag: Sendable, ArgumentSlot {
    private let name: String?
    private let short: Character?
    private let help: String
    private let isRequired: Bool

    /// What the command line gave: the flag's spelling, for messages and constraints.
    public let projectedValue = ParsedValue<Bool>(false)

    /// Whether the flag was given.
    public var wrappedValue: Bool { projectedValue.value }

    /// A flag spelled `--<name>` (and `-<short>`).
    public init(name: String? = nil, short: Character? = nil, help: String, required: Bool = false) {
        self.name = name
        self.short = short
        self.help = help
        isRequired = required
    }

    func declaration(label: String) -> SlotDeclaration {
        .option(.flag(name ?? SlotNames.option(label), short: short, help: help, required: isRequired))
    }

    func fill(from arguments: ParsedArguments, label: String) throws(UsageError) {
        let name = name ?? SlotNames.option(label)
        let given = arguments.isPresent(name)
        projectedValue.fill(value: given, text: nil, spelling: arguments.spelling(of: name), isPresent: given)
    }

    var identity: ObjectIdentifier { ObjectIdentifier(projectedValue) }
}
