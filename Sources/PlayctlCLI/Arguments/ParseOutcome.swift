/// What the executable prints and how it exits when the command line asks for no command to run:
/// help and version go to standard output with status 0, usage errors to standard error with status 2.
public struct ImmediateResponse: Sendable, Equatable {
    /// Text for standard output, ending with a newline (empty when there is none).
    public var standardOutput: String
    /// Text for standard error, ending with a newline (empty when there is none).
    public var standardError: String
    /// The process exit status.
    public var exitCode: Int32

    /// Creates a response.
    public init(standardOutput: String, standardError: String, exitCode: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.exitCode = exitCode
    }
}

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
