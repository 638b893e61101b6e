/// Declares an option of a command as a property: `@Option(placeholder: "R", help: "...") var rate: Double = 1`.
///
/// The property's type says how the option reads: with a default, the default when absent; `Value?`, `nil` when
/// absent; without a default, required (parsing fails when absent); `[Element]`, repeatable, every value in
/// command-line order. The name is the property's, words joined by dashes (`swapAt`: `--swap-at`), unless `name`
/// gives one. Values must be `ArgumentValue`s; an enumeration of spellings lists its choices in help.
@propertyWrapper
public struct Option<Value: Sendable>: Sendable, ArgumentSlot {
    private let name: String?
    private let short: Character?
    private let placeholder: String?
    private let help: String
    private let kind: OptionSpec.Kind
    private let isRequired: Bool
    private let choices: [String]
    private let read: @Sendable (ParsedArguments, String) throws(UsageError) -> Value?

    /// What the command line gave: the option's spelling and text, for messages and constraints.
    public let projectedValue: ParsedValue<Value>

    /// The option's value.
    public var wrappedValue: Value { projectedValue.value }

    private init(
        name: String?, short: Character?, placeholder: String?, help: String, kind: OptionSpec.Kind,
        isRequired: Bool, choices: [String], initial: Value?,
        read: @escaping @Sendable (ParsedArguments, String) throws(UsageError) -> Value?
    ) {
        self.name = name
        self.short = short
        self.placeholder = placeholder
        self.help = help
        self.kind = kind
        self.isRequired = isRequired
        self.choices = choices
        self.read = read
        projectedValue = ParsedValue(initial)
    }

    func declaration(label: String) -> SlotDeclaration {
        let name = name ?? SlotNames.option(label)
        let placeholder = placeholder ?? (choices.isEmpty ? "VALUE" : choices.joined(separator: "|"))
        return .option(
            OptionSpec(
                name: name, short: short, kind: kind, placeholder: placeholder, help: help, isRequired: isRequired,
                choices: choices))
    }

    func fill(from arguments: ParsedArguments, label: String) throws(UsageError) {
        let name = name ?? SlotNames.option(label)
        let value = try read(arguments, name)
        projectedValue.fill(
            value: value, text: arguments.value(name), spelling: arguments.spelling(of: name),
            isPresent: arguments.isPresent(name))
    }

    var identity: ObjectIdentifier { ObjectIdentifier(projectedValue) }
}

extension Option where Value: ArgumentValue {
    /// An option with a default: `@Option(help: "...") var rate: Double = 1`. `check` is applied to a value given.
    public init(
        wrappedValue: Value, name: String? = nil, short: Character? = nil, placeholder: String? = nil,
        help: String, check: ValueCheck<Value>? = nil
    ) {
        self.init(
            name: name, short: short, placeholder: placeholder, help: help, kind: .value, isRequired: false,
            choices: Value.argumentChoices, initial: wrappedValue
        ) { (arguments, name) throws(UsageError) in
            guard let text = arguments.value(name) else { return nil }
            return try SlotNames.convert(text, name, arguments, check)
        }
    }

    /// A required option: `@Option(placeholder: "SECONDS", help: "...") var at: Double`.
    public init(
        name: String? = nil, short: Character? = nil, placeholder: String? = nil, help: String,
        check: ValueCheck<Value>? = nil
    ) {
        self.init(
            name: name, short: short, placeholder: placeholder, help: help, kind: .value, isRequired: true,
            choices: Value.argumentChoices, initial: nil
        ) { (arguments, name) throws(UsageError) in
            guard let text = arguments.value(name) else { return nil }
            return try SlotNames.convert(text, name, arguments, check)
        }
    }
}

extension Option {
    /// An option that may be absent: `@Option(help: "...") var until: Double?`.
    public init<Wrapped: ArgumentValue>(
        name: String? = nil, short: Character? = nil, placeholder: String? = nil, help: String,
        check: ValueCheck<Wrapped>? = nil
    ) where Value == Wrapped? {
        self.init(
            name: name, short: short, placeholder: placeholder, help: help, kind: .value, isRequired: false,
            choices: Wrapped.argumentChoices, initial: .some(nil)
        ) { (arguments, name) throws(UsageError) in
            guard let text = arguments.value(name) else { return nil }
            return .some(try SlotNames.convert(text, name, arguments, check))
        }
    }

    /// A repeatable option: `@Option(placeholder: "SEC[@AT]", help: "...") var seek: [ScheduledSeek]`, every value
    /// in command-line order, empty when absent.
    public init<Element: ArgumentValue>(
        name: String? = nil, short: Character? = nil, placeholder: String? = nil, help: String,
        check: ValueCheck<Element>? = nil
    ) where Value == [Element] {
        self.init(
            name: name, short: short, placeholder: placeholder, help: help, kind: .repeatable, isRequired: false,
            choices: Element.argumentChoices, initial: []
        ) { (arguments, name) throws(UsageError) in
            var values: [Element] = []
            for text in arguments.values(name) { values.append(try SlotNames.convert(text, name, arguments, check)) }
            return values
        }
    }
}
