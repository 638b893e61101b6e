import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

@Suite("Parsing command lines")
struct ParsingTests {
    @Test func runsTheNamedCommandWithItsPositional() throws {
        let outcome = parse("probe clip.mp4 --json")
        guard case .run(let command, let arguments) = outcome else {
            Issue.record("expected .run, got \(outcome)")
            return
        }
        #expect(command.name == "probe")
        #expect(arguments.command.name == "probe")
        #expect(arguments.positional(0) == "clip.mp4")
        #expect(arguments.positional("FILE") == "clip.mp4")
        #expect(arguments.positional(1) == nil)
        #expect(arguments.positional(-1) == nil)
        #expect(arguments.flag("json"))
    }

    @Test func absentFlagsAndOptionsReadAsFalseAndNil() throws {
        let arguments = try parsedArguments("play clip.mp4")
        #expect(!arguments.flag("json"))
        #expect(arguments.value("rate") == nil)
        #expect(arguments.values("seek") == [])
        #expect(try arguments.double("rate") == nil)
        #expect(try arguments.double("rate", default: 1) == 1)
    }

    @Test func valuedOptionsAcceptSpaceAndEqualsForms() throws {
        let spaced = try parsedArguments("frame clip.mp4 --at 2.5 --md5")
        let joined = try parsedArguments("frame clip.mp4 --at=2.5 --md5")
        #expect(spaced.value("at") == "2.5")
        #expect(joined.value("at") == "2.5")
        #expect(try joined.double("at") == 2.5)
        #expect(try joined.requiredDouble("at") == 2.5)
    }

    @Test func equalsFormKeepsEverythingAfterTheFirstEquals() throws {
        let arguments = try parsedArguments("frame clip.mp4 --at 1 --output=a=b.png")
        #expect(arguments.value("output") == "a=b.png")
    }

    @Test func shortAliasesTakeValuesInEveryForm() throws {
        for line in ["frame c --at 1 -o out.png", "frame c --at 1 -o=out.png", "frame c --at 1 -oout.png"] {
            let arguments = try parsedArguments(line)
            #expect(arguments.value("output") == "out.png", "\(line)")
            #expect(arguments.value("o") == "out.png", "lookup by short alias, \(line)")
            #expect(arguments.spelling(of: "output") == "-o")
        }
        let long = try parsedArguments("frame c --at 1 --output out.png")
        #expect(long.spelling(of: "o") == "--output")
    }

    @Test func optionsMayComeBeforePositionals() throws {
        let arguments = try parsedArguments("frame --md5 --at 3 clip.mp4")
        #expect(arguments.positional(0) == "clip.mp4")
        #expect(arguments.flag("md5"))
    }

    @Test func repeatedOptionsKeepTheirOrder() throws {
        let arguments = try parsedArguments("play clip.mp4 --seek 5 --json --seek=1@2 --seek 0.5@3.25")
        #expect(arguments.values("seek") == ["5", "1@2", "0.5@3.25"])
        #expect(arguments.value("seek") == "0.5@3.25")
        #expect(arguments.flag("seek"))
    }

    @Test func repeatedShortOptionsKeepTheirOrderAcrossSpellings() throws {
        let arguments = try parsedArguments("concat out a b -t x --tag y -tz --tag=w", spec: sampleTool)
        #expect(arguments.values("tag") == ["x", "y", "z", "w"])
        #expect(arguments.positionalValues("IN") == ["a", "b"])
        #expect(arguments.positional("OUT") == "out")
    }

    @Test func doubleDashEndsOptions() throws {
        let arguments = try parsedArguments("probe -- --json", spec: PlayctlCommands.spec)
        #expect(arguments.positional(0) == "--json")
        #expect(!arguments.flag("json"))
        let help = try parsedArguments("concat -- -h --help -- x", spec: sampleTool)
        #expect(help.positionals == ["-h", "--help", "--", "x"])
    }

    @Test func loneDashAndNegativeNumbersArePositionalsOrValues() throws {
        let stdin = try parsedArguments("probe -")
        #expect(stdin.positional(0) == "-")
        let negative = try parsedArguments("frame clip.mp4 --at -1.5 --md5")
        #expect(try negative.double("at") == -1.5)
        let negativeDot = try parsedArguments("frame clip.mp4 --at -.5 --md5")
        #expect(negativeDot.value("at") == "-.5")
        let positional = try parsedArguments("show -3", spec: sampleTool)
        #expect(positional.positional("FILE") == "-3")
    }

    @Test func optionalAndVariadicPositionals() throws {
        let one = try parsedArguments("show a", spec: sampleTool)
        #expect(one.positional("PAGE") == nil)
        let two = try parsedArguments("show a 7", spec: sampleTool)
        #expect(two.positional("PAGE") == "7")
        let none = try parsedArguments("concat out", spec: sampleTool)
        #expect(none.positionalValues("IN") == [])
        #expect(none.positionalValues("NOPE") == [])
    }

    @Test func repeatedFlagsAreHarmless() throws {
        let arguments = try parsedArguments("probe clip.mp4 --json --json")
        #expect(arguments.flag("json"))
    }

    @Test func choicesAreCheckedWhileParsing() throws {
        let arguments = try parsedArguments("play a.mp4 --swap b.mp4 --swap-mode source")
        #expect(try arguments.oneOf("swap-mode", ["source", "item"]) == "source")
        let repeated = try parsedArguments("concat out --codec hevc --codec h264", spec: sampleTool)
        #expect(repeated.values("codec") == ["hevc", "h264"])
    }

    @Test func emptyValuesAreValues() throws {
        let arguments = try parsedArguments("frame clip.mp4 --at 1 --output=")
        #expect(arguments.value("output") == "")
    }

    @Test func typedIntegerAccessor() throws {
        let arguments = try parsedArguments("concat out --level 12", spec: sampleTool)
        #expect(try arguments.int("level") == 12)
        let bad = try parsedArguments("concat out --level 1.5", spec: sampleTool)
        #expect(throws: UsageError.self) { try bad.int("level") }
    }

    @Test func versionAndNoCommand() {
        #expect(parse("--version") == .version("playctl 0.1.0"))
        #expect(parse("--version", spec: sampleTool) == .version("tool 1.2.3"))
        #expect(parse("") == .usageError(UsageError(.missingCommand, toolName: "playctl")))
    }
}
