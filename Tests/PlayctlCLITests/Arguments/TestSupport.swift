import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

/// Parses a command line written as one string, split on spaces, with the real playctl spec.
func parse(_ line: String, spec: ToolSpec = PlayctlCommands.spec) -> ParseOutcome {
    spec.parse(line.split(separator: " ").map(String.init))
}

/// The arguments of a successful parse, or a recorded test failure.
func parsedArguments(
    _ line: String, spec: ToolSpec = PlayctlCommands.spec, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ParsedArguments {
    let outcome = parse(line, spec: spec)
    guard case .run(_, let arguments) = outcome else {
        Issue.record("expected .run for '\(line)', got \(outcome)", sourceLocation: sourceLocation)
        throw ExpectedRun()
    }
    return arguments
}

/// The usage error of a failed parse, or a recorded test failure.
func usageError(
    _ line: String, spec: ToolSpec = PlayctlCommands.spec, sourceLocation: SourceLocation = #_sourceLocation
) throws -> UsageError {
    let outcome = parse(line, spec: spec)
    guard case .usageError(let error) = outcome else {
        Issue.record("expected .usageError for '\(line)', got \(outcome)", sourceLocation: sourceLocation)
        throw ExpectedUsageError()
    }
    return error
}

/// The help text of a help request, or a recorded test failure.
func helpText(
    _ line: String, spec: ToolSpec = PlayctlCommands.spec, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let outcome = parse(line, spec: spec)
    guard case .help(let text) = outcome else {
        Issue.record("expected .help for '\(line)', got \(outcome)", sourceLocation: sourceLocation)
        throw ExpectedHelp()
    }
    return text
}

struct ExpectedRun: Error {}
struct ExpectedUsageError: Error {}
struct ExpectedHelp: Error {}

/// A small tool exercising what the playctl spec does not: variadic and optional positionals, atMostOne,
/// repeatable short options, choices on a repeatable option.
let sampleTool = ToolSpec(
    name: "tool",
    abstract: "A sample tool for parser tests.",
    version: "tool 1.2.3",
    commands: [
        CommandSpec(
            name: "concat",
            abstract: "Join files.",
            arguments: [
                PositionalSpec("OUT", help: "Output file."),
                PositionalSpec("IN", help: "Input files.", arity: .variadic),
            ],
            options: [
                .repeatable("tag", short: "t", placeholder: "TAG", help: "A tag; repeatable."),
                .repeatable("codec", help: "Codec per input.", choices: ["h264", "hevc"]),
                .flag("fast", help: "Go fast."),
                .flag("slow", help: "Go slow."),
                .value("level", help: "An integer level."),
            ],
            constraints: [.atMostOne(["fast", "slow"])]),
        CommandSpec(
            name: "show",
            abstract: "Show one file.",
            arguments: [
                PositionalSpec("FILE", help: "The file."),
                PositionalSpec("PAGE", help: "An optional page.", arity: .optional),
            ]),
    ])
