import Testing

@testable import CommandLineKit
@testable import PlayctlBench
@testable import PlayctlCLI

@Suite("The playctl command spec")
struct PlayctlCommandsTests {
    @Test func declarationIsWellFormed() {
        #expect(PlayctlCommands.spec.validate() == [])
        #expect(
            PlayctlCommands.spec.commands.map(\.name) == [
                "probe", "frames", "frame", "poster", "play", "feed", "soak", "thumbnails", "report",
            ])
        #expect(PlayctlBenchCommands.spec.validate() == [])
        #expect(PlayctlBenchCommands.spec.commands.map(\.name) == ["run"])
    }

    @Test(arguments: [PlayctlCommands.spec, PlayctlBenchCommands.spec])
    func everyExampleInHelpParses(spec: ToolSpec) throws {
        for command in spec.commands {
            #expect(!command.abstract.isEmpty)
            for example in command.examples {
                let words = example.commandLine.split(separator: " ").map(String.init)
                #expect(words.first == spec.name)
                let outcome = spec.parse(Array(words.dropFirst()))
                guard case .run(let ran, _) = outcome else {
                    Issue.record("example '\(example.commandLine)' does not parse: \(outcome)")
                    continue
                }
                #expect(ran.name == command.name)
            }
        }
    }

    @Test func playWithEveryOption() throws {
        let arguments = try parsedArguments(
            "play a.mp4 --rate 2 --seek 5 --seek 1@2 --until 9 --untimed --no-audio --json --pip --swap b.mp4 "
                + "--swap-at 3 --swap-mode item --restore --metrics-out m.jsonl")
        #expect(arguments.positional("FILE") == "a.mp4")
        #expect(try arguments.double("rate") == 2)
        #expect(arguments.values("seek") == ["5", "1@2"])
        #expect(try arguments.double("until") == 9)
        for flag in ["untimed", "no-audio", "json", "pip", "restore"] {
            #expect(arguments.flag(flag), "\(flag)")
        }
        #expect(arguments.value("swap") == "b.mp4")
        #expect(try arguments.double("swap-at") == 3)
        #expect(arguments.value("swap-mode") == "item")
        #expect(arguments.value("metrics-out") == "m.jsonl")
    }

    @Test(arguments: [PlayctlCommands.tool, PlayctlBenchCommands.tool])
    func everyDeclaredCommandRuns(tool: CommandLineTool) {
        #expect(tool.commands.count == tool.spec.commands.count)
        for type in tool.commands {
            #expect(type is any PlayctlCommand.Type, "\(type) has a run")
        }
    }

    @Test func playReadsEveryOptionIntoTypedValues() throws {
        let line =
            "play a.mp4 --rate 2 --seek 5 --seek 1@2 --until 9 --untimed --no-audio --json --pip --swap b.mp4 "
            + "--swap-at 3 --swap-mode item --restore --metrics-out m.jsonl"
        guard case .run(let command) = PlayctlCommands.tool.parse(line.split(separator: " ").map(String.init)) else {
            Issue.record("'\(line)' does not run")
            return
        }
        let play = try #require(command as? PlayCommand)
        #expect(play.options.path == "a.mp4")
        #expect(play.options.rate == 2)
        #expect(play.options.seeks.map(\.to) == [5, 1] && play.options.seeks.map(\.at) == [nil, 2])
        #expect(play.options.until == 9)
        #expect(play.options.untimed && !play.options.audio && play.options.json)
        #expect(play.options.metricsPath == "m.jsonl")
        let scenario = try #require(play.pictureInPicture)
        #expect(scenario.pip && scenario.restore)
        #expect(scenario.swapPath == "b.mp4" && scenario.swapAt == 3 && scenario.swapMode == .item)
    }

    @Test func frameNeedsExactlyOneOutput() throws {
        #expect(try parsedArguments("frame a.mp4 --at 1 --md5 --keyframe").flag("keyframe"))
        #expect(try parsedArguments("frame a.mp4 --at 1 -o f.png").value("output") == "f.png")
        #expect(try usageError("frame a.mp4 --at 1").kind == .missingOneOf(["--md5", "-o"]))
    }

    @Test func validationFindsDeclarationMistakes() {
        let broken = ToolSpec(
            name: "broken", abstract: "", version: "0",
            commands: [
                CommandSpec(
                    name: "x", abstract: "",
                    arguments: [
                        PositionalSpec("A", help: "", arity: .variadic), PositionalSpec("B", help: ""),
                    ],
                    options: [
                        .flag("help", help: ""), .flag("a", help: ""), .flag("dup", help: ""),
                        .flag("dup", help: ""),
                    ],
                    constraints: [.atMostOne(["dup", "missing"])]),
                CommandSpec(name: "x", abstract: ""),
                CommandSpec(name: "help", abstract: ""),
            ])
        let problems = broken.validate()
        #expect(problems.contains("command 'x' declared twice"))
        #expect(problems.contains("command 'help' clashes with the built-in help command"))
        #expect(problems.contains("command 'x': 'help' clashes with the built-in -h/--help"))
        #expect(problems.contains("command 'x': invalid option name 'a'"))
        #expect(problems.contains("command 'x': option '--dup' declared twice"))
        #expect(problems.contains("command 'x': variadic argument 'A' is not last"))
        #expect(problems.contains("command 'x': required argument 'B' follows an optional one"))
        #expect(problems.contains("command 'x': constraint mentions undeclared option 'missing'"))
    }
}
