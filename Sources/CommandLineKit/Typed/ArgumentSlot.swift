/// A declared option or argument as the reflection over a command sees it: a property wrapper (`@Option`, `@Flag`,
/// `@Argument`) that says what it declares and reads its value from parsed arguments.
protocol ArgumentSlot {
    /// The declaration, named after the property's `label` unless the wrapper names it.
    func declaration(label: String) -> SlotDeclaration
    /// Reads, converts and checks the value the command line gave, into the wrapper's `ParsedValue`.
    /// - Throws: `UsageError` for a text that is not a value or a value its check rejects.
    func fill(from arguments: ParsedArguments, label: String) throws(UsageError)
    /// The wrapper's `ParsedValue`, which constraints name through key paths.
    var identity: ObjectIdentifier { get }
}

/// What one property declares.
enum SlotDeclaration {
    case option(OptionSpec)
    case argument(PositionalSpec)
}

/// Names derived from property names, and reading values.
enum SlotNames {
    /// `--no-audio` for `noAudio`: the property's name in lower case, words joined by dashes.
    static func option(_ label: String) -> String {
        var name = ""
        for character in label {
            if character.isUppercase {
                if !name.isEmpty { name.append("-") }
                name += character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// `FILE` for `file`: the property's name in upper case.
    static func argument(_ label: String) -> String {
        label.uppercased()
    }

    /// `text` as a `Value`, checked.
    /// - Throws: `UsageError` `.invalidValue` naming `name` as the user spelled it.
    static func convert<Value: ArgumentValue>(
        _ text: String, _ name: String, _ arguments: ParsedArguments, _ check: ValueCheck<Value>?
    ) throws(UsageError) -> Value {
        guard let value = Value(argument: text) else {
            throw arguments.invalidValue(name, value: text, expected: Value.expectedArgument)
        }
        if let check, !check.accepts(value) {
            throw arguments.invalidValue(name, value: Value.rejectedText(value, typed: text), expected: check.expected)
        }
        return value
    }
}

/// Every option and argument a command declares, found by reflection over an instance: its property wrappers, in
/// declaration order, and those of its groups (stored properties that are `ParsableArguments`), depth first. No
/// list to keep in step with the properties: a declared property is an option, and only a declared one is.
enum CommandReflection {
    /// The slots of `value`, each with the property name that names it.
    static func slots(of value: Any) -> [(label: String, slot: any ArgumentSlot)] {
        var slots: [(label: String, slot: any ArgumentSlot)] = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            if let slot = child.value as? any ArgumentSlot {
                // A wrapped property's storage is `_name`.
                slots.append((label.hasPrefix("_") ? String(label.dropFirst()) : label, slot))
            } else if child.value is any ParsableArguments {
                slots += Self.slots(of: child.value)
            }
        }
        return slots
    }
}
