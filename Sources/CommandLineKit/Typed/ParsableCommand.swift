/// A set of options and arguments declared as properties (`@Option`, `@Flag`, `@Argument`): a command, or a group
/// of options several commands share, held by a stored property of each (its options then join the command's, in
/// place).
public protocol ParsableArguments: Sendable {
    /// Every declaration at its default: what reflection reads the declarations from, and what parsing fills.
    init()
}

/// A command of a tool, declared as a type: its `configuration` (name, help texts, examples), its options and
/// arguments as properties, `constraints` relating them, and `validate()` for what a declaration cannot say.
///
/// Parsing makes a value with `init()` and fills every declared property from the command line, in declaration order
/// (a text that is not a value, or a value its `check` rejects, is a usage error then), then calls `validate()`.
/// The option list help shows is the properties themselves, found by reflection: one declaration per option, and
/// only a declared option can be read.
public protocol ParsableCommand: ParsableArguments {
    /// The command's name, help texts and examples.
    static var configuration: CommandConfiguration { get }
    /// Rules relating the command's options, checked by the parser (key paths to their projected values:
    /// `.requires(\.$swapAt, \.$swap)`). None by default.
    static var constraints: [OptionRule<Self>] { get }
    /// Checks what the declarations cannot say (`SOURCE` or `--batch`), after every value has been read.
    /// - Throws: `UsageError` (usually from a projected value: `$at.invalidValue(expected:)`), reported as the
    ///   parser reports its own.
    func validate() throws(UsageError)
}

extension ParsableCommand {
    public static var constraints: [OptionRule<Self>] { [] }

    public func validate() throws(UsageError) {}

    /// The command's declaration, as the parser and help see it: the configuration, and the options and arguments
    /// its properties declare, in declaration order.
    public static var spec: CommandSpec {
        let prototype = Self()
        var arguments: [PositionalSpec] = []
        var options: [OptionSpec] = []
        var names: [ObjectIdentifier: String] = [:]
        for (label, slot) in CommandReflection.slots(of: prototype) {
            switch slot.declaration(label: label) {
            case .option(let option):
                options.append(option)
                names[slot.identity] = option.name
            case .argument(let argument):
                arguments.append(argument)
                names[slot.identity] = argument.name
            }
        }
        return CommandSpec(
            name: configuration.name, abstract: configuration.abstract, discussion: configuration.discussion,
            arguments: arguments, options: options,
            constraints: constraints.map { $0.resolved(in: prototype, names: names) },
            examples: configuration.examples)
    }

    /// The command's value for `arguments`, which the parser read with `spec`: every declared property filled,
    /// then validated.
    /// - Throws: `UsageError` for the first value the command does not accept.
    public static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Self {
        let command = Self()
        do {
            for (label, slot) in CommandReflection.slots(of: command) {
                try slot.fill(from: arguments, label: label)
            }
            try command.validate()
        } catch {
            throw error.within(tool: arguments.toolName, command: arguments.command.name)
        }
        return command
    }
}

/// A command's name and help texts.
public struct CommandConfiguration: Sendable {
    /// The word that selects the command (`frame`).
    public var name: String
    /// One line shown in the tool's command list and at the top of the command's help.
    public var abstract: String
    /// Further paragraphs for the command's help; may be empty.
    public var discussion: String
    /// Example invocations shown at the end of help.
    public var examples: [UsageExample]

    /// Creates a configuration.
    public init(name: String, abstract: String, discussion: String = "", examples: [UsageExample] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.examples = examples
    }
}
