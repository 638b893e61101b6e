// Compiled into the fuzzer's own module with playctl's declarations (scripts/fuzz.sh), and into PlayctlCLITests through
// a symbolic link (Tests/PlayctlCLITests/Reliability/ArgumentsFuzzCase.swift), where it imports PlayctlCLI.
import CommandLineKit
#if canImport(PlayctlCLI)
@testable import PlayctlCLI
#endif

/// One fuzz case over `PlayctlCommands.spec.parse`: every command line gives an outcome that keeps the parser's
/// promises (see `ToolSpec.parse`), and the typed accessors of a parsed command never trap. A broken promise stops
/// the fuzzer with `preconditionFailure`, which libFuzzer records as a crash with its input.
enum ArgumentsFuzzCase {
    static func run(_ argv: [String]) {
        let spec = PlayctlCommands.spec
        let outcome = spec.parse(argv)
        switch outcome {
        case .run(let command, let arguments):
            check(!argv.isEmpty && argv[0] == command.name, "ran \(command.name) for \(argv)")
            check(arguments.positionals.count < argv.count, "more positionals than arguments")
            check(outcome.immediateResponse == nil, "a run has no immediate response")
            exerciseAccessors(command, arguments)
        case .help(let text):
            check(text.hasPrefix("OVERVIEW: "), "help text starts with its overview")
        case .version(let text):
            check(text == PlayctlCommands.version, "version text")
        case .usageError(let error):
            let lines = error.diagnosticLines
            check(lines.count == 2, "a usage error is two lines: \(lines)")
            check(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") }, "diagnostic lines hold no line break")
            check(lines[0].hasPrefix("playctl: error: "), "diagnostic prefix: \(lines[0])")
            check(lines[1].hasPrefix("see 'playctl "), "hint: \(lines[1])")
            let response = outcome.immediateResponse
            check(response?.exitCode == UsageError.exitCode && response?.standardOutput == "", "usage response")
        }
        // Same input, same outcome: the parser keeps no state between calls.
        check(spec.parse(argv) == outcome, "parse is deterministic")
    }

    /// Reads every declared option through every typed accessor; each either answers or throws a `UsageError`.
    private static func exerciseAccessors(_ command: CommandSpec, _ arguments: ParsedArguments) {
        for option in command.options {
            _ = arguments.flag(option.name)
            _ = arguments.values(option.name)
            _ = arguments.spelling(of: option.name)
            _ = try? arguments.double(option.name)
            _ = try? arguments.int(option.name)
            if !option.choices.isEmpty { _ = try? arguments.oneOf(option.name, option.choices) }
            if let short = option.short {
                check(arguments.values(String(short)) == arguments.values(option.name), "short alias reads the same")
            }
        }
        for positional in command.arguments { _ = arguments.positionalValues(positional.name) }
    }

    private static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { preconditionFailure("parser promise broken: \(message())") }
    }
}
