import CommandLineKit
import PlayctlOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `playctl` executable (and `playctl-bench`, with its own tool): parses the command line, runs the command,
/// reports failures, returns the exit status.
///
/// Exit statuses follow the usual conventions:
/// - 0: success, and `--help`/`--version`;
/// - 1: the command ran and failed (missing file, not media, unwritable output): one line on standard error,
///   `playctl: error: <what went wrong>`;
/// - 2: the command line is wrong, for the parser or for the command's own checks of its values:
///   `playctl: error: <mistake>` and a `see 'playctl <command> --help'` hint.
public enum PlayctlMain {
    /// The exit status of a command that ran and failed.
    public static let failureExitCode: Int32 = 1

    /// Runs the command line `arguments` (without the executable's name) with `tool`'s commands, which must all be
    /// `PlayctlCommand`s, and returns the exit status. Everything the command prints is written before this returns.
    public static func run(_ arguments: [String], tool: CommandLineTool = PlayctlCommands.tool) -> Int32 {
        let command: any PlayctlCommand
        switch tool.parse(arguments) {
        case .respond(let response):
            response.write()
            return response.exitCode
        case .run(let parsed):
            guard let runnable = parsed as? any PlayctlCommand else {
                preconditionFailure(
                    "\(type(of: parsed)) is declared by \(tool.spec.name) but is not a PlayctlCommand")
            }
            command = runnable
        }
        let output = StandardOutput()
        do throws(CommandFailure) {
            try command.run(output)
            try output.flush()
            return 0
        } catch {
            // What the command printed before failing still goes out, before the error.
            try? output.flush()
            reportFailure(error.message, tool: tool.spec.name)
            return failureExitCode
        }
    }

    /// Reports `message` as `playctl: error: <message>` and ends the process with `failureExitCode`, from any
    /// thread: for a failure found where returning is not possible (the soak's watchdog sees a hang).
    static func exitWithFailure(_ message: String) -> Never {
        reportFailure(message, tool: PlayctlCommands.spec.name)
        exit(failureExitCode)
    }

    /// Writes the one line of a failed command of `tool` on standard error.
    private static func reportFailure(_ message: String, tool: String) {
        let line = tool + ": error: " + CommandFailure.oneLine(message) + "\n"
        _ = FileDescriptorIO.writeAll(Array(line.utf8), to: STDERR_FILENO)
    }
}
