/// Declares a positional argument of a command as a property: `@Argument(help: "...") var file: String`, shown as
/// `FILE` (the property's name in upper case, unless `name` gives one). A `Value?` argument is optional (`[SOURCE]`).
/// Arguments are filled in declaration order.
@propertyWrapper
public struct Argument<Value: Sendable>: Sendable, ArgumentSlot {
    private let name: String?
    private let help: String
    private let arity: PositionalSpec.Arity
    private let read: @Sendable (ParsedArguments, String) throws(UsageError) -> Value?

    /// What the command line gave, for messages.
    public let projectedValue: ParsedValue<Value>

    /// The argument's value.
    public var wrappedValue: Value { projectedValue.value }

    private init(
        name: String?, help: String, arity: PositionalSpec.Arity, initial: Value?,
        read: @escaping @Sendable (ParsedArguments, String) throws(UsageError) -> Value?
    ) {
        self.name = name
        self.help = help
        self.arity = arity
        self.read = read
        projectedValue = ParsedValue(initial)
    }

    func declaration(label: String) -> SlotDeclaration {
        .argument(PositionalSpec(name ?? SlotNames.argument(label), help: help, arity: arity))
    }

    func fill(from arguments: ParsedArguments, label: String) throws(UsageError) {
        let name = name ?? SlotNames.argument(label)
        let text = arguments.positional(name)
        projectedValue.fill(value: try read(arguments, name), text: text, spelling: name, isPresent: text != nil)
    }

    var identity: ObjectIdentifier { ObjectIdentifier(projectedValue) }
}

extension Argument where Value: ArgumentValue {
    /// A required argument (the parser checks it is there).
    public init(name: String? = nil, help: String) {
        self.init(name: name, help: help, arity: .required, initial: nil) { (arguments, name) throws(UsageError) in
            guard let text = arguments.positional(name) else { return nil }
            guard let value = Value(argument: text) else {
                throw arguments.error(.invalidValue(option: name, value: text, expected: Value.expectedArgument))
            }
            return value
        }
    }
}

extension Argument {
    /// An optional argument (`[SOURCE]`), for a command that takes it or an option instead.
    public init<Wrapped: ArgumentValue>(name: String? = nil, help: String) where Value == Wrapped? {
        self.init(name: name, help: help, arity: .optional, initial: .some(nil)) {
            (arguments, name) throws(UsageError) in
            guard let text = arguments.positional(name) else { return nil }
            guard let value = Wrapped(argument: text) else {
                throw arguments.error(.invalidValue(option: name, value: text, expected: Wrapped.expectedArgument))
            }
            return .some(value)
        }
    }
}
