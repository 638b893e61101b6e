#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Writes `standardOutput` to standard output and `standardError` to standard error, after flushing C standard
    /// I/O so that earlier `print` output comes first. Write errors (a closed pipe) are ignored: there is nowhere
    /// left to report them. The caller then exits with `exitCode`.
    public func write(standardOutputDescriptor: Int32 = 1, standardErrorDescriptor: Int32 = 2) {
        fflush(nil)
        if !standardOutput.isEmpty {
            _ = FileDescriptorIO.writeAll(Array(standardOutput.utf8), to: standardOutputDescriptor)
        }
        if !standardError.isEmpty {
            _ = FileDescriptorIO.writeAll(Array(standardError.utf8), to: standardErrorDescriptor)
        }
    }
}
