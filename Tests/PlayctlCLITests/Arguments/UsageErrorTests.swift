import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

@Suite("Usage errors: kind, message and hint")
struct UsageErrorTests {
    /// Checks one failing command line against its kind, message and hint.
    private func check(
        _ line: String, spec: ToolSpec = PlayctlCommands.spec, _ kind: UsageError.Kind, _ message: String,
        hint: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try usageError(line, spec: spec, sourceLocation: sourceLocation)
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
        #expect(error.hint == hint, sourceLocation: sourceLocation)
    }

    @Test func missingCommand() throws {
        try check("", .missingCommand, "missing command", hint: "see 'playctl --help'")
    }

    @Test func unknownCommandWithSuggestion() throws {
        try check(
            "frmae clip.mp4", .unknownCommand("frmae", suggestion: "frame"),
            "unknown command 'frmae' (did you mean 'frame'?)", hint: "see 'playctl --help'")
        try check(
            "probr x", .unknownCommand("probr", suggestion: "probe"),
            "unknown command 'probr' (did you mean 'probe'?)", hint: "see 'playctl --help'")
    }

    @Test func unknownCommandWithoutSuggestion() throws {
        try check(
            "transcode x", .unknownCommand("transcode", suggestion: nil), "unknown command 'transcode'",
            hint: "see 'playctl --help'")
    }

    @Test func unknownOptionBeforeTheCommand() throws {
        try check(
            "--verison", .unknownOption("--verison", suggestion: "--version"),
            "unknown option '--verison' (did you mean '--version'?)", hint: "see 'playctl --help'")
    }

    @Test func unknownOptionWithSuggestion() throws {
        try check(
            "probe clip.mp4 --jsno", .unknownOption("--jsno", suggestion: "--json"),
            "unknown option '--jsno' (did you mean '--json'?)", hint: "see 'playctl probe --help'")
        try check(
            "play clip.mp4 --metrics=m.jsonl", .unknownOption("--metrics", suggestion: "--metrics-out"),
            "unknown option '--metrics' (did you mean '--metrics-out'?)", hint: "see 'playctl play --help'")
    }

    @Test func unknownShortOption() throws {
        try check(
            "frame clip.mp4 -x", .unknownOption("-x", suggestion: nil), "unknown option '-x'",
            hint: "see 'playctl frame --help'")
    }

    @Test func missingValueAtTheEnd() throws {
        try check(
            "frame clip.mp4 --md5 --at", .missingValue(option: "--at"), "missing value for option '--at'",
            hint: "see 'playctl frame --help'")
    }

    @Test func missingValueBeforeAnotherOption() throws {
        try check(
            "frame clip.mp4 -o --md5 --at 1", .missingValue(option: "-o"), "missing value for option '-o'",
            hint: "see 'playctl frame --help'")
    }

    @Test func flagGivenAValue() throws {
        try check(
            "probe clip.mp4 --json=yes", .unexpectedValue(option: "--json", value: "yes"),
            "option '--json' does not take a value", hint: "see 'playctl probe --help'")
    }

    @Test func singleValuedOptionGivenTwice() throws {
        try check(
            "frame clip.mp4 --md5 --at 1 --at=2", .duplicateOption("--at"), "option '--at' given more than once",
            hint: "see 'playctl frame --help'")
    }

    @Test func missingPositional() throws {
        try check(
            "probe --json", .missingArgument("FILE"), "missing argument 'FILE'", hint: "see 'playctl probe --help'")
    }

    @Test func unexpectedExtraArgument() throws {
        try check(
            "probe a.mp4 b.mp4", .unexpectedArgument("b.mp4"), "unexpected argument 'b.mp4'",
            hint: "see 'playctl probe --help'")
        try check(
            "soak now", .unexpectedArgument("now"), "unexpected argument 'now'", hint: "see 'playctl soak --help'")
    }

    @Test func missingRequiredOption() throws {
        try check(
            "frame clip.mp4 --md5", .missingOption("--at"), "missing required option '--at'",
            hint: "see 'playctl frame --help'")
        try check(
            "frames clip.mp4 --json", .missingOneOf(["--md5", "--count"]), "one of '--md5' or '--count' is required",
            hint: "see 'playctl frames --help'")
    }

    @Test func invalidChoice() throws {
        try check(
            "play a.mp4 --swap b.mp4 --swap-mode player",
            .invalidValue(
                option: "--swap-mode", value: "player",
                expected: "one of source, item"),
            "invalid value 'player' for '--swap-mode': expected one of source, item", hint: "see 'playctl play --help'")
    }

    @Test func invalidNumberFromTheTypedAccessorNamesTheOptionAsSpelled() throws {
        let arguments = try parsedArguments("play clip.mp4 --rate fast")
        let error = #expect(throws: UsageError.self) { try arguments.double("rate") }
        #expect(error?.message == "invalid value 'fast' for '--rate': expected a number")
        #expect(error?.hint == "see 'playctl play --help'")
        let short = try parsedArguments("concat out --level x", spec: sampleTool)
        #expect(
            throws: UsageError(
                .invalidValue(option: "--level", value: "x", expected: "an integer"),
                toolName: "tool", commandName: "concat")
        ) { try short.int("level") }
    }

    @Test func nonFiniteNumbersAreInvalid() throws {
        for text in ["nan", "inf", "-inf", "1e999"] {
            let arguments = try parsedArguments("play clip.mp4 --until=\(text)")
            #expect(throws: UsageError.self, "\(text)") { try arguments.double("until") }
        }
    }

    @Test func oneOfAccessorRejectsOtherValues() throws {
        let arguments = try parsedArguments("concat out --level high", spec: sampleTool)
        let error = #expect(throws: UsageError.self) { try arguments.oneOf("level", ["low", "mid"]) }
        #expect(error?.message == "invalid value 'high' for '--level': expected one of low, mid")
    }

    @Test func mutuallyExclusiveOptionsAsSpelled() throws {
        try check(
            "frame clip.mp4 --at 1 --md5 -o x.png", .mutuallyExclusive(["--md5", "-o"]),
            "options '--md5' and '-o' cannot be used together", hint: "see 'playctl frame --help'")
        try check(
            "concat out --slow --fast", spec: sampleTool, .mutuallyExclusive(["--fast", "--slow"]),
            "options '--fast' and '--slow' cannot be used together", hint: "see 'tool concat --help'")
    }

    @Test func exactlyOneWithNoneGiven() throws {
        try check(
            "frame clip.mp4 --at 1", .missingOneOf(["--md5", "-o"]), "one of '--md5' or '-o' is required",
            hint: "see 'playctl frame --help'")
    }

    @Test func missingDependency() throws {
        try check(
            "play a.mp4 --swap-at 3", .missingDependency(option: "--swap-at", requires: "--swap"),
            "option '--swap-at' requires '--swap'", hint: "see 'playctl play --help'")
    }

    @Test func helpWithTooManyTopics() throws {
        try check(
            "help frame play", .unexpectedArgument("play"), "unexpected argument 'play'", hint: "see 'playctl --help'")
        try check(
            "help frmae", .unknownCommand("frmae", suggestion: "frame"),
            "unknown command 'frmae' (did you mean 'frame'?)", hint: "see 'playctl --help'")
    }

    @Test func diagnosticLinesAndResponse() throws {
        let error = try usageError("frame clip.mp4 --at 1")
        #expect(
            error.diagnosticLines == [
                "playctl: error: one of '--md5' or '-o' is required",
                "see 'playctl frame --help'",
            ])
        let response = try #require(ParseOutcome.usageError(error).immediateResponse)
        #expect(response.exitCode == 2)
        #expect(response.standardOutput == "")
        #expect(
            response.standardError == """
                playctl: error: one of '--md5' or '-o' is required
                see 'playctl frame --help'

                """)
        #expect("\(error)" == error.message)
    }

    @Test func firstMistakeWins() throws {
        // An unknown option is reported before the missing positional that follows from the same line.
        let error = try usageError("frame --bogus")
        #expect(error.kind == .unknownOption("--bogus", suggestion: nil))
    }
}
