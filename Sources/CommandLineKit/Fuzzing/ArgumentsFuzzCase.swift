/// One fuzz case over a tool's command-line parsing: whatever the command line, the outcome keeps the parser's
/// promises (see `ToolSpec.parse` and `CommandLineTool.parse`), and reading a parsed command, through every accessor
/// and through its type (`parse`: its declarations filled, then `validate()`), never traps. `brokenPromises` lists
/// what an input broke, for the corpus replay to report each with its file and go on; `run` stops the program with
/// `preconditionFailure` at the first, which libFuzzer records as a crash with its input.
///
/// Run on every input by the argument fuzzer (scripts/fuzz.sh args, Fuzz/Arguments/FuzzArguments.swift) and on the
/// committed corpus (Fuzz/corpus/args) by the CLI tests, both with playctl's tool and playctl-bench's.
public enum ArgumentsFuzzCase {
    /// Parses `argv` (the arguments after the executable's name) with `tool` and checks the outcome; traps on the
    /// first promise broken (for libFuzzer).
    public static func run(_ argv: [String], tool: CommandLineTool) {
        if let broken = brokenPromises(argv, tool: tool).first {
            preconditionFailure("parser promise broken: \(broken)")
        }
    }

    /// Parses `argv` (the arguments after the executable's name) with `tool` and checks the outcome: the promises
    /// it broke, each in a sentence; empty when it kept them all.
    public static func brokenPromises(_ argv: [String], tool: CommandLineTool) -> [String] {
        var broken = Promises()
        check(argv, tool: tool, &broken)
        return broken.messages
    }

    /// The promises an input broke so far.
    private struct Promises {
        var messages: [String] = []

        mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { messages.append(message()) }
        }
    }

    private static func check(_ argv: [String], tool: CommandLineTool, _ promises: inout Promises) {
        let spec = tool.spec
        let outcome = spec.parse(argv)
        switch outcome {
        case .run(let command, let arguments):
            promises.check(!argv.isEmpty && argv[0] == command.name, "ran \(command.name) for \(argv)")
            promises.check(arguments.positionals.count < argv.count, "more positionals than arguments")
            promises.check(outcome.immediateResponse == nil, "a run has no immediate response")
            exerciseAccessors(command, arguments, &promises)
            promises.check(tool.commandType(named: command.name) != nil, "a type for \(command.name)")
        case .help(let text):
            promises.check(text.hasPrefix("OVERVIEW: "), "help text starts with its overview")
        case .version(let text):
            promises.check(text == spec.version, "version text")
        case .usageError(let error):
            checkDiagnostic(error, tool: spec.name, &promises)
            let response = outcome.immediateResponse
            promises.check(
                response?.exitCode == UsageError.exitCode && response?.standardOutput == "", "usage response")
        }
        // Same input, same outcome: the parser keeps no state between calls.
        promises.check(spec.parse(argv) == outcome, "parse is deterministic")
        // The command's own reading (its declarations' checks, its validate()) answers or reports a usage error worded like the parser's.
        switch tool.parse(argv) {
        case .run(let command):
            guard case .run(let declared, _) = outcome else {
                return promises.check(false, "the tool ran what the parser did not")
            }
            promises.check(type(of: command).spec == declared, "ran the type of \(declared.name)")
        case .respond(let response):
            if case .run = outcome {
                promises.check(response.exitCode == UsageError.exitCode, "a command's own check is a usage error")
                let lines = response.standardError.split(separator: "\n", omittingEmptySubsequences: false)
                promises.check(lines.count == 3 && lines[2].isEmpty, "a command's usage error is two lines: \(lines)")
                promises.check(lines.first?.hasPrefix(spec.name + ": error: ") == true, "diagnostic prefix: \(lines)")
            } else {
                promises.check(response == outcome.immediateResponse, "the tool responds as its declaration does")
            }
        }
    }

    /// Reads every declared option through every accessor; each either answers or throws a `UsageError`.
    private static func exerciseAccessors(
        _ command: CommandSpec, _ arguments: ParsedArguments, _ promises: inout Promises
    ) {
        for option in command.options {
            _ = arguments.flag(option.name)
            _ = arguments.values(option.name)
            _ = arguments.spelling(of: option.name)
            _ = try? arguments.double(option.name)
            _ = try? arguments.int(option.name)
            if !option.choices.isEmpty { _ = try? arguments.oneOf(option.name, option.choices) }
            if let short = option.short {
                promises.check(
                    arguments.values(String(short)) == arguments.values(option.name), "short alias reads the same")
            }
        }
        for positional in command.arguments { _ = arguments.positionalValues(positional.name) }
    }

    /// Two lines, no line break inside either: `<tool>: error: …` and `see '<tool> …'`.
    private static func checkDiagnostic(_ error: UsageError, tool name: String, _ promises: inout Promises) {
        let lines = error.diagnosticLines
        guard lines.count == 2 else { return promises.check(false, "a usage error is two lines: \(lines)") }
        promises.check(
            lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") }, "diagnostic lines hold no line break")
        promises.check(lines[0].hasPrefix(name + ": error: "), "diagnostic prefix: \(lines[0])")
        promises.check(lines[1].hasPrefix("see '\(name) "), "hint: \(lines[1])")
    }
}
