/// Declares a multi-command tool (`playctl <command> [options] [arguments]`) and parses its command lines.
///
/// Built in, for every tool: `--help`/`-h` and `help [<command>]` print help, `--version` prints the version, and
/// `<command> --help`/`-h` print the command's help (anywhere before a `--`, even next to other mistakes).
public struct ToolSpec: Sendable, Equatable {
    /// The executable's name, used in usage lines and diagnostics.
    public var name: String
    /// One line describing the tool, at the top of its help.
    public var abstract: String
    /// Further paragraphs for the tool's help; may be empty.
    public var discussion: String
    /// The text `--version` prints.
    public var version: String
    /// The commands, in the order help lists them.
    public var commands: [CommandSpec]

    /// Creates a tool.
    public init(name: String, abstract: String, discussion: String = "", version: String, commands: [CommandSpec]) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.commands = commands
    }

    /// The command called `name`.
    public func command(named name: String) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Parses the arguments that follow the executable's name (`CommandLine.arguments.dropFirst()`).
    ///
    /// Never traps and runs in time proportional to the input (times the small, fixed size of the declaration).
    public func parse(_ argv: [String]) -> ParseOutcome {
        guard let first = argv.first else {
            return .usageError(error(.missingCommand))
        }
        switch first {
        case "-h", "--help":
            return .help(helpText())
        case "--version":
            return .version(version)
        case "help":
            return helpCommand(Array(argv.dropFirst()))
        default:
            break
        }
        if CommandParser.looksLikeOption(first) {
            let name = first.prefix { $0 != "=" }
            let suggestion = Suggestions.closest(to: String(name), among: ["--help", "--version"])
            return .usageError(error(.unknownOption(String(name), suggestion: suggestion)))
        }
        guard let command = command(named: first) else {
            let suggestion = Suggestions.closest(to: first, among: commands.map(\.name))
            return .usageError(error(.unknownCommand(first, suggestion: suggestion)))
        }
        let arguments = Array(argv.dropFirst())
        if Self.asksForHelp(arguments) {
            return .help(helpText(for: command))
        }
        do {
            let parsed = try CommandParser(command: command, toolName: name).parse(arguments)
            return .run(command, parsed)
        } catch {
            return .usageError(error)
        }
    }

    /// The tool's help: overview, usage, commands and global options.
    public func helpText() -> String {
        HelpFormatter().help(for: self)
    }

    /// The help of one command: overview, usage line, arguments, options and examples.
    public func helpText(for command: CommandSpec) -> String {
        HelpFormatter().help(for: command, toolName: name)
    }

    /// The usage line of one command, without the `USAGE: ` label: `playctl probe FILE [--json]`.
    public func usage(of command: CommandSpec) -> String {
        HelpFormatter().usage(of: command, toolName: name)
    }

    /// Mistakes in the declaration, each as one sentence; empty when the tool is well formed.
    public func validate() -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for command in commands {
            if command.name == "help" {
                problems.append("command 'help' clashes with the built-in help command")
            }
            if !seen.insert(command.name).inserted {
                problems.append("command '\(command.name)' declared twice")
            }
            problems += command.validate()
        }
        return problems
    }

    // MARK: Helpers

    /// `help`, `help <command>`; anything more is an unexpected argument.
    private func helpCommand(_ arguments: [String]) -> ParseOutcome {
        guard let topic = arguments.first else { return .help(helpText()) }
        if arguments.count > 1 {
            return .usageError(error(.unexpectedArgument(arguments[1])))
        }
        if topic == "help" || topic == "-h" || topic == "--help" {
            return .help(helpText())
        }
        guard let command = command(named: topic) else {
            let suggestion = Suggestions.closest(to: topic, among: commands.map(\.name))
            return .usageError(error(.unknownCommand(topic, suggestion: suggestion)))
        }
        return .help(helpText(for: command))
    }

    /// Whether `-h` or `--help` appears before any `--`.
    private static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "-h" || argument == "--help" { return true }
        }
        return false
    }

    private func error(_ kind: UsageError.Kind) -> UsageError {
        UsageError(kind, toolName: name)
    }
}
