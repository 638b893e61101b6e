import Testing

@testable import CommandLineKit

/// A group of options two commands could share: its options join the command's, in place.
private struct Quality: ParsableArguments {
    @Option(short: "l", placeholder: "N", help: "A level.", check: .range(0...9, "a level up to 9")) var level: Int?
    @Option(help: "A gain.") var gain: Double = 1
}

/// A small tool declared with property wrappers, exercising CommandLineKit's typed layer apart from playctl.
private struct Encode: ParsableCommand {
    enum Codec: String, CaseIterable, ArgumentValue { case h264, hevc }

    static let configuration = CommandConfiguration(name: "encode", abstract: "Encode.")
    static var constraints: [OptionRule<Self>] { [.atMostOne(\.$fast, \.$slow)] }

    @Argument(name: "IN", help: "The input.") var input: String
    var quality = Quality()
    @Option(help: "The codec.") var codec: Codec = .h264
    @Option(name: "tag", short: "t", placeholder: "TAG", help: "A tag.") var tags: [String]
    @Option(name: "width", placeholder: "W", help: "A width.") var widths: [Int]
    @Flag(help: "Go fast.") var fast: Bool
    @Flag(help: "Go slow.") var slow: Bool
    @Option(placeholder: "SEC", help: "A time.") var keyTime: Double?

    func validate() throws(UsageError) {
        if fast && widths.contains(where: { $0 > 1920 }) {
            throw $widths.invalidValue(expected: "1920 or less with --fast")
        }
    }
}

/// A command whose rule names something that is not an option's projected value.
private struct Broken: ParsableCommand {
    static let configuration = CommandConfiguration(name: "broken", abstract: "Broken.")
    static var constraints: [OptionRule<Self>] { [.requires(\.$fast, \.note)] }

    @Flag(help: "Go fast.") var fast: Bool
    var note = "not an option"
}

private let tool = CommandLineTool(name: "tool", abstract: "A tool.", version: "tool 1", commands: [Encode.self])

private func run(_ line: String) -> CommandLineOutcome {
    tool.parse(line.split(separator: " ").map(String.init))
}

private func message(_ line: String) -> String? {
    guard case .respond(let response) = run(line), response.exitCode == 2 else { return nil }
    return response.standardError.split(separator: "\n").first.map(String.init)
}

@Suite("Options declared as properties")
struct TypedOptionsTests {
    @Test func aCommandLineBecomesTheCommandsValue() throws {
        guard
            case .run(let command) = run(
                "encode in.mov -l 3 --codec hevc -t a --tag b --width 640 --width 480 --fast --key-time 2.5")
        else {
            Issue.record("expected .run")
            return
        }
        let encode = try #require(command as? Encode)
        #expect(encode.input == "in.mov")
        #expect(encode.quality.level == 3 && encode.quality.gain == 1)
        #expect(encode.codec == .hevc)
        #expect(encode.tags == ["a", "b"])
        #expect(encode.widths == [640, 480])
        #expect(encode.fast && !encode.slow)
        #expect(encode.keyTime == 2.5)
        #expect(encode.quality.$level.spelling == "-l" && encode.quality.$level.text == "3")
        #expect(encode.$fast.isPresent && !encode.$slow.isPresent && encode.$slow.spelling == "--slow")
    }

    @Test func absentOptionsReadAsTheirDefaultsNilEmptyAndFalse() throws {
        guard case .run(let command) = run("encode in.mov") else {
            Issue.record("expected .run")
            return
        }
        let encode = try #require(command as? Encode)
        #expect(encode.quality.level == nil && encode.quality.gain == 1 && encode.codec == .h264)
        #expect(encode.tags == [] && encode.widths == [] && !encode.fast && encode.keyTime == nil)
    }

    @Test func theDeclarationsAreTheHelpInDeclarationOrder() throws {
        let spec = Encode.spec
        #expect(tool.spec.command(named: "encode") == spec)
        #expect(spec.arguments == [PositionalSpec("IN", help: "The input.")])
        #expect(
            spec.options.map(\.name) == ["level", "gain", "codec", "tag", "width", "fast", "slow", "key-time"],
            "a group's options in place; names from the properties, words joined by dashes")
        #expect(
            spec.option(named: "codec") == OptionSpec.value("codec", help: "The codec.", choices: ["h264", "hevc"]))
        #expect(spec.option(named: "tag")?.kind == .repeatable)
        #expect(spec.constraints == [.atMostOne(["fast", "slow"])])
        #expect(tool.spec.validate() == [])
        #expect(
            tool.spec.usage(of: spec)
                == "tool encode IN [-l N] [--gain VALUE] [--codec h264|hevc] [-t TAG]...\n"
                + "                   [--width W]... [--fast | --slow] [--key-time SEC]")
    }

    @Test func aRuleNamingNoOptionIsADeclarationMistake() {
        #expect(Broken.spec.validate() == ["command 'broken': constraint mentions undeclared option '(not an option)'"])
    }

    @Test func conversionsAndChecksFailWithTheUsualUsageError() {
        #expect(message("encode in.mov -l x") == "tool: error: invalid value 'x' for '-l': expected an integer")
        #expect(
            message("encode in.mov --level=1.5")
                == "tool: error: invalid value '1.5' for '--level': expected an integer")
        #expect(message("encode in.mov -l 12") == "tool: error: invalid value '12' for '-l': expected a level up to 9")
        #expect(message("encode in.mov -l 012") == "tool: error: invalid value '12' for '-l': expected a level up to 9")
        #expect(
            message("encode in.mov --width 1 --width w")
                == "tool: error: invalid value 'w' for '--width': expected an integer")
        #expect(
            message("encode in.mov --codec vp9")
                == "tool: error: invalid value 'vp9' for '--codec': expected one of h264, hevc")
        // Declaration order: --level is read before --width.
        #expect(
            message("encode in.mov --width w -l x") == "tool: error: invalid value 'x' for '-l': expected an integer")
        // validate() after every value is read, its errors worded the same way.
        #expect(
            message("encode in.mov --fast --width 4000")
                == "tool: error: invalid value '4000' for '--width': expected 1920 or less with --fast")
        // The parser's own mistakes come first, the command's checks after them.
        #expect(
            message("encode in.mov -l x --fast --slow")
                == "tool: error: options '--fast' and '--slow' cannot be used together")
    }

    @Test func aCommandsUsageErrorNamesTheToolAndTheCommand() {
        guard case .respond(let response) = run("encode in.mov -l 12") else {
            Issue.record("expected a response")
            return
        }
        #expect(response.standardError.hasSuffix("see 'tool encode --help'\n"))
    }

    @Test func theArgumentValueTypesReadWhatTheyPromise() {
        #expect(Double(argument: "1e3") == 1000)
        #expect(Double(argument: "inf") == nil && Double(argument: "nan") == nil && Double(argument: "") == nil)
        #expect(Int(argument: "+7") == 7 && Int(argument: "007") == 7 && Int(argument: "1.0") == nil)
        #expect(String(argument: "") == "")
        #expect(Encode.Codec(argument: "hevc") == .hevc && Encode.Codec(argument: "HEVC") == nil)
        #expect(Encode.Codec.expectedArgument == "one of h264, hevc")
        #expect(Int.rejectedText(-5, typed: "-05") == "-5" && Double.rejectedText(0.1, typed: "0.10") == "0.10")
    }

    @Test func namesComeFromThePropertiesUnlessGiven() {
        #expect(SlotNames.option("noAudio") == "no-audio")
        #expect(SlotNames.option("swapAt") == "swap-at")
        #expect(SlotNames.option("json") == "json")
        #expect(SlotNames.argument("manifest") == "MANIFEST")
    }
}
