/// The arguments of one command, as read from the command line.
///
/// Commands read them through their declarations (`@Option var rate: Double`, filled by `ParsableCommand.parse`),
/// which name each option once. The accessors below look options up by canonical name (`"output"`) or short alias letter
/// (`"o"`); they are internal, for the parser, its checks, its fuzz case and its tests, so that no command reads an
/// option by a string a typo could silently miss. The typed helpers throw a `UsageError` naming the option as the
/// user spelled it, so a command reports a bad value exactly like the parser reports a bad option.
public struct ParsedArguments: Sendable, Equatable {
    /// The command these arguments belong to.
    public let command: CommandSpec
    /// The tool's name, used in errors the typed helpers throw.
    public let toolName: String
    /// The positional arguments, in order.
    public private(set) var positionals: [String] = []

    private var flags: Set<String> = []
    private var optionValues: [String: [String]] = [:]
    private var spellings: [String: String] = [:]

    /// Creates empty arguments for `command`; the parser fills them.
    init(command: CommandSpec, toolName: String) {
        self.command = command
        self.toolName = toolName
    }

    // MARK: Raw accessors

    /// Whether the flag or option was given at least once.
    func flag(_ name: String) -> Bool {
        guard let key = key(name) else { return false }
        return flags.contains(key) || optionValues[key] != nil
    }

    /// The value of a single-valued option, or the last value of a repeatable one; `nil` when absent.
    func value(_ name: String) -> String? {
        values(name).last
    }

    /// Every value given for an option, in command-line order; empty when absent.
    func values(_ name: String) -> [String] {
        guard let key = key(name) else { return [] }
        return optionValues[key] ?? []
    }

    /// The positional argument at `index`, or `nil` past the end.
    func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    /// The value of the declared positional called `name` (`"FILE"`); for a variadic one, its first value.
    func positional(_ name: String) -> String? {
        positionalValues(name).first
    }

    /// The values taken by the declared positional called `name`: at most one unless it is variadic.
    func positionalValues(_ name: String) -> [String] {
        guard let index = command.arguments.firstIndex(where: { $0.name == name }) else { return [] }
        guard index < positionals.count else { return [] }
        if command.arguments[index].arity == .variadic {
            return Array(positionals[index...])
        }
        return [positionals[index]]
    }

    /// How the user spelled the option (`-o`, `--output`), or its preferred spelling when it was not given.
    func spelling(of name: String) -> String {
        guard let key = key(name) else { return "--" + name }
        return spellings[key] ?? command.option(named: key)?.preferredSpelling ?? "--" + key
    }

    // MARK: Typed accessors

    /// The option's value as a finite number, or `nil` when absent.
    /// - Throws: `UsageError` with `.invalidValue` naming the option when the value is not a finite number.
    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw invalidValue(name, value: text, expected: "a number")
        }
        return number
    }

    /// The option's value as a finite number, or `defaultValue` when absent.
    /// - Throws: `UsageError` with `.invalidValue` when the value is not a finite number.
    func double(_ name: String, default defaultValue: Double) throws(UsageError) -> Double {
        try double(name) ?? defaultValue
    }

    /// The option's value as a finite number.
    /// - Throws: `UsageError` with `.missingOption` when absent, `.invalidValue` when not a finite number.
    func requiredDouble(_ name: String) throws(UsageError) -> Double {
        guard let number = try double(name) else { throw error(.missingOption(spelling(of: name))) }
        return number
    }

    /// The option's value as an integer, or `nil` when absent.
    /// - Throws: `UsageError` with `.invalidValue` when the value is not an integer.
    func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw invalidValue(name, value: text, expected: "an integer") }
        return number
    }

    /// The option's value when it is one of `choices`, or `nil` when absent.
    /// - Throws: `UsageError` with `.invalidValue` listing the choices otherwise.
    func oneOf(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            throw invalidValue(name, value: text, expected: Self.describeChoices(choices))
        }
        return text
    }

    // MARK: Errors for command-level validation

    /// An error of `kind` attributed to this command, for checks the declaration cannot express.
    public func error(_ kind: UsageError.Kind) -> UsageError {
        UsageError(kind, toolName: toolName, commandName: command.name)
    }

    /// An `.invalidValue` error naming the option as the user spelled it; `expected` completes "expected ...".
    func invalidValue(_ name: String, value: String, expected: String) -> UsageError {
        error(.invalidValue(option: spelling(of: name), value: value, expected: expected))
    }

    /// `"one of a, b, c"`.
    static func describeChoices(_ choices: [String]) -> String {
        "one of " + choices.joined(separator: ", ")
    }

    // MARK: Filling (parser only)

    mutating func setFlag(_ option: OptionSpec, spelling: String) {
        flags.insert(option.name)
        recordSpelling(option, spelling)
    }

    mutating func appendValue(_ value: String, for option: OptionSpec, spelling: String) {
        optionValues[option.name, default: []].append(value)
        recordSpelling(option, spelling)
    }

    mutating func appendPositional(_ value: String) {
        positionals.append(value)
    }

    /// Whether the option, by canonical name, was given.
    func isPresent(_ canonicalName: String) -> Bool {
        flags.contains(canonicalName) || optionValues[canonicalName] != nil
    }

    private mutating func recordSpelling(_ option: OptionSpec, _ spelling: String) {
        if spellings[option.name] == nil { spellings[option.name] = spelling }
    }

    /// The canonical name for a canonical name or short alias letter of a declared option.
    private func key(_ name: String) -> String? {
        command.option(named: name)?.name
    }
}
