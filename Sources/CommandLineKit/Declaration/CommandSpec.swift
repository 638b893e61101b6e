/// Declares one subcommand of a tool: its name, help texts, positional arguments, options and option rules.
///
/// Every command also accepts `-h`/`--help`, which the parser provides; do not declare them.
public struct CommandSpec: Sendable, Equatable {
    /// The word that selects the command (`frame`).
    public var name: String
    /// One line shown in the tool's command list and at the top of the command's help.
    public var abstract: String
    /// Further paragraphs for the command's help; may be empty. Paragraphs are separated by blank lines.
    public var discussion: String
    /// Positional arguments, in order.
    public var arguments: [PositionalSpec]
    /// Options, in the order help lists them.
    public var options: [OptionSpec]
    /// Rules relating options, checked after parsing.
    public var constraints: [OptionConstraint]
    /// Example invocations shown at the end of help.
    public var examples: [UsageExample]

    /// Creates a command.
    public init(
        name: String, abstract: String, discussion: String = "",
        arguments: [PositionalSpec] = [], options: [OptionSpec] = [],
        constraints: [OptionConstraint] = [], examples: [UsageExample] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.constraints = constraints
        self.examples = examples
    }

    /// The option whose canonical name or short alias letter is `identifier`.
    public func option(named identifier: String) -> OptionSpec? {
        options.first { $0.isNamed(identifier) }
    }

    /// The option spelled `--<long>`, given without its dashes.
    func option(long: Substring) -> OptionSpec? {
        options.first { $0.name == long }
    }

    /// The option spelled `-<short>`.
    func option(short: Character) -> OptionSpec? {
        options.first { $0.short == short }
    }

    /// Mistakes in the declaration itself, each as one sentence; empty when the command is well formed.
    public func validate() -> [String] {
        var problems: [String] = []
        let prefix = "command '\(name)'"
        if name.isEmpty || name.hasPrefix("-") || name.contains(" ") {
            problems.append("\(prefix): invalid command name")
        }
        var seenNames: Set<String> = []
        var seenShorts: Set<Character> = []
        for option in options {
            if option.name.count < 2 || option.name.hasPrefix("-") || option.name.contains("=")
                || option.name.contains(" ")
            {
                problems.append("\(prefix): invalid option name '\(option.name)'")
            }
            if option.name == "help" || option.short == "h" {
                problems.append("\(prefix): '\(option.name)' clashes with the built-in -h/--help")
            }
            if !seenNames.insert(option.name).inserted {
                problems.append("\(prefix): option '--\(option.name)' declared twice")
            }
            if let short = option.short {
                if short == "-" || short == "=" || short.isWhitespace || short.isNumber {
                    problems.append("\(prefix): invalid short alias '\(short)'")
                }
                if !seenShorts.insert(short).inserted {
                    problems.append("\(prefix): short alias '-\(short)' declared twice")
                }
            }
            if option.kind == .flag && !option.choices.isEmpty {
                problems.append("\(prefix): flag '--\(option.name)' cannot have choices")
            }
        }
        problems += validatePositionals(prefix: prefix)
        for constraint in constraints {
            if case .exactlyOne(let names) = constraint, names.count < 2 {
                problems.append("\(prefix): exactlyOne needs two or more options; declare one option required")
            }
            if case .atMostOne(let names) = constraint, names.count < 2 {
                problems.append("\(prefix): atMostOne needs two or more options")
            }
            for name in constraint.optionNames where option(named: name) == nil {
                problems.append("\(prefix): constraint mentions undeclared option '\(name)'")
            }
        }
        return problems
    }

    private func validatePositionals(prefix: String) -> [String] {
        var problems: [String] = []
        var sawOptional = false
        for (index, positional) in arguments.enumerated() {
            if positional.arity == .required && sawOptional {
                problems.append("\(prefix): required argument '\(positional.name)' follows an optional one")
            }
            if positional.arity == .variadic && index != arguments.count - 1 {
                problems.append("\(prefix): variadic argument '\(positional.name)' is not last")
            }
            if positional.arity != .required { sawOptional = true }
        }
        return problems
    }
}

/// An example invocation shown at the end of a command's help.
public struct UsageExample: Sendable, Equatable {
    /// The full command line, starting with the tool's name.
    public var commandLine: String
    /// What the invocation does, in one sentence.
    public var explanation: String

    /// Creates an example from a command line and its explanation.
    public init(_ commandLine: String, _ explanation: String) {
        self.commandLine = commandLine
        self.explanation = explanation
    }
}
