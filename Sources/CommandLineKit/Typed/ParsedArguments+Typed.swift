/// Reading a command's arguments through their typed declarations.
///
/// Every subscript checks that the command declares that very option or argument (same name, same declaration):
/// reading one it does not declare is a programming error and stops the program, rather than reading `nil`.
extension ParsedArguments {
    /// Whether the flag was given.
    public subscript(flag: Flag) -> Bool {
        requireDeclared(flag)
        return self.flag(flag.spec.name)
    }

    /// The option's value, or `nil` when it was not given.
    /// - Throws: `UsageError` `.invalidValue`, naming the option as the user spelled it, when the text is not a
    ///   `Value` (`expected` is `Value.expectedArgument`).
    public subscript<Value>(option: Option<Value>) -> Value? {
        get throws(UsageError) {
            requireDeclared(option)
            guard let text = value(option.spec.name) else { return nil }
            return try convert(text, for: option)
        }
    }

    /// The text of a text-valued option, or `nil` when it was not given.
    public subscript(option: Option<String>) -> String? {
        requireDeclared(option)
        return value(option.spec.name)
    }

    /// Every value given for the option, in command-line order; empty when it was not given.
    /// - Throws: `UsageError` `.invalidValue` for the first text that is not a `Value`.
    public subscript<Value>(option: RepeatableOption<Value>) -> [Value] {
        get throws(UsageError) {
            requireDeclared(option)
            var result: [Value] = []
            for text in values(option.spec.name) { result.append(try convert(text, for: option)) }
            return result
        }
    }

    /// Every text given for a text-valued repeatable option, in command-line order.
    public subscript(option: RepeatableOption<String>) -> [String] {
        requireDeclared(option)
        return values(option.spec.name)
    }

    /// The value of a required positional argument (the parser has checked it is there).
    /// - Throws: `UsageError` `.invalidValue` naming the argument when the text is not a `Value`.
    public subscript<Value>(argument: Argument<Value>) -> Value {
        get throws(UsageError) {
            let text = positionalText(argument.spec)
            guard let value = Value(argument: text) else {
                throw error(.invalidValue(option: argument.spec.name, value: text, expected: Value.expectedArgument))
            }
            return value
        }
    }

    /// The text of a required positional argument (the parser has checked it is there).
    public subscript(argument: Argument<String>) -> String {
        positionalText(argument.spec)
    }

    /// The text of an optional positional argument, or nil when it was not given.
    public subscript(argument: OptionalArgument) -> String? {
        precondition(
            command.arguments.contains(argument.spec),
            "command '\(command.name)' does not declare the argument \(argument.spec.name)")
        return positional(argument.spec.name)
    }

    /// The option's value, which must be there.
    /// - Throws: `UsageError` `.missingOption` when it was not given, `.invalidValue` when it is not a `Value`.
    public func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = try self[option] else { throw error(.missingOption(spelling(of: option))) }
        return value
    }

    /// The text the user gave for the option (its last one), as typed; `nil` when it was not given. For messages
    /// about a value the command rejects after reading it.
    public func text(of option: some OptionDeclaration) -> String? {
        requireDeclared(option)
        return value(option.spec.name)
    }

    /// How the user spelled the option (`-o`, `--output`), or its preferred spelling when it was not given.
    public func spelling(of option: some OptionDeclaration) -> String {
        requireDeclared(option)
        return spelling(of: option.spec.name)
    }

    /// An `.invalidValue` error naming the option as the user spelled it, for a value the declaration accepts but
    /// the command does not (`--at -1`); `expected` completes "expected ...".
    public func invalidValue(_ option: some OptionDeclaration, value: String, expected: String) -> UsageError {
        error(.invalidValue(option: spelling(of: option), value: value, expected: expected))
    }

    // MARK: Helpers

    private func convert<Value: ArgumentValue>(
        _ text: String, for option: some OptionDeclaration
    ) throws(UsageError) -> Value {
        guard let value = Value(argument: text) else {
            throw invalidValue(option, value: text, expected: Value.expectedArgument)
        }
        return value
    }

    private func positionalText(_ spec: PositionalSpec) -> String {
        precondition(
            command.arguments.contains(spec), "command '\(command.name)' does not declare the argument \(spec.name)")
        guard let text = positional(spec.name) else {
            preconditionFailure("the parser let '\(command.name)' run without its argument \(spec.name)")
        }
        return text
    }

    private func requireDeclared(_ option: some OptionDeclaration) {
        precondition(
            command.option(named: option.spec.name) == option.spec,
            "command '\(command.name)' does not declare the option --\(option.spec.name) read from it")
    }
}
