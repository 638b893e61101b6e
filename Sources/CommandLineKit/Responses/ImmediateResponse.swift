/// What the executable prints and how it exits when the command line asks for no command to run:
/// help and version go to standard output with status 0, usage errors to standard error with status 2.
/// The parser only says what to print; the executable prints it.
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
