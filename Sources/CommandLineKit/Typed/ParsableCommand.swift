/// A command of a tool, declared as a type: its `configuration` (name, help texts, typed arguments and options,
/// constraints, examples) and the values read from a command line that names it.
///
/// `init` reads every option through its typed declaration (`arguments[Self.rate]`) and checks what a declaration
/// cannot say (`--rate` between 0.25 and 4), throwing a `UsageError` as the parser does. The order it reads in is
/// the order its mistakes are reported in. What the command then does is the tool's business: `CommandLineTool`
/// only hands over the value.
public protocol ParsableCommand: Sendable {
    /// The command's declaration.
    static var configuration: CommandSpec { get }

    /// The command's values, read and checked from a parsed command line.
    /// - Throws: `UsageError` for a value the command does not accept.
    init(_ arguments: ParsedArguments) throws(UsageError)
}
