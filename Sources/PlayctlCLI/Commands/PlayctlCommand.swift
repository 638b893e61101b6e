import CommandLineKit

/// A playctl command that runs. What it accepts (its declaration and checked values) is its `ParsableCommand`
/// conformance, in `Arguments/`; what it does is this `run`, in `Commands/`. Every command `PlayctlCommands.tool`
/// declares is one (PlayctlCommandsTests checks).
package protocol PlayctlCommand: ParsableCommand {
    /// Does the command's work, printing through `output`, which `PlayctlMain` flushes afterwards.
    /// - Throws: `CommandFailure` when the work fails (reported as one line, exit status 1).
    func run(_ output: StandardOutput) throws(CommandFailure)
}
