/// A multi-command tool whose commands are types (`ParsableCommand`): parsing a command line gives the value of
/// the command it names, or what to print instead.
///
/// Help, version, usage errors and their wording are `ToolSpec`'s; a command's own checks (its values' `check`s and
/// its `validate()`) add usage errors worded the same way, reported after every mistake the parser finds.
public struct CommandLineTool: Sendable {
    /// The declaration: the tool's texts and its commands' declarations, in order.
    public let spec: ToolSpec
    /// The command types, in the order help lists them.
    public let commands: [any ParsableCommand.Type]

    /// A tool named `name` (used in usage lines and diagnostics) with these commands.
    public init(
        name: String, abstract: String, discussion: String = "", version: String,
        commands: [any ParsableCommand.Type]
    ) {
        self.commands = commands
        spec = ToolSpec(
            name: name, abstract: abstract, discussion: discussion, version: version,
            commands: commands.map { $0.spec })
    }

    /// Parses the arguments that follow the executable's name into the command they name, or the response to
    /// print (help, version, usage error). Never traps on any input.
    public func parse(_ argv: [String]) -> CommandLineOutcome {
        let outcome = spec.parse(argv)
        guard case .run(let command, let arguments) = outcome else {
            guard let response = outcome.immediateResponse else { preconditionFailure("only .run has no response") }
            return .respond(response)
        }
        guard let type = commandType(named: command.name) else {
            preconditionFailure("no type for the command '\(command.name)' the tool declares")
        }
        do {
            return .run(try type.parse(arguments))
        } catch {
            return .respond(error.immediateResponse)
        }
    }

    /// The type of the command called `name`.
    public func commandType(named name: String) -> (any ParsableCommand.Type)? {
        commands.first { $0.configuration.name == name }
    }
}

/// What a command line asks a `CommandLineTool` for.
public enum CommandLineOutcome: Sendable {
    /// Run this command.
    case run(any ParsableCommand)
    /// Print this and exit with its status (help, version, or a usage error).
    case respond(ImmediateResponse)
}
