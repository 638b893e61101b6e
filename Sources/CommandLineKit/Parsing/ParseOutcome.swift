/// The result of parsing a whole command line with `ToolSpec.parse(_:)`.
public enum ParseOutcome: Sendable, Equatable {
    /// Run `command` with the parsed arguments.
    case run(CommandSpec, ParsedArguments)
    /// Print this help text on standard output and exit 0 (`--help`, `-h`, `help`, `help <command>`).
    case help(String)
    /// Print this version text on standard output and exit 0 (`--version`).
    case version(String)
    /// Report this error on standard error and exit 2.
    case usageError(UsageError)

    /// What to print and return for every outcome except `.run`, which yields `nil`.
    public var immediateResponse: ImmediateResponse? {
        switch self {
        case .run:
            return nil
        case .help(let text):
            return ImmediateResponse(standardOutput: Self.line(text), standardError: "", exitCode: 0)
        case .version(let text):
            return ImmediateResponse(standardOutput: Self.line(text), standardError: "", exitCode: 0)
        case .usageError(let error):
            return error.immediateResponse
        }
    }

    private static func line(_ text: String) -> String {
        text.hasSuffix("\n") ? text : text + "\n"
    }
}
