import Testing

@testable import CommandLineKit

/// A small tool declared with typed options, exercising CommandLineKit's typed layer apart from playctl.
private struct Encode: ParsableCommand {
    enum Codec: String, CaseIterable, ArgumentValue { case h264, hevc }

    static let input = Argument<String>("IN", help: "The input.")
    static let level = Option<Int>("level", short: "l", placeholder: "N", help: "A level.")
    static let gain = Option<Double>("gain", help: "A gain.")
    static let codec = Option<Codec>("codec", help: "The codec.")
    static let tags = RepeatableOption<String>("tag", short: "t", placeholder: "TAG", help: "A tag.")
    static let widths = RepeatableOption<Int>("width", placeholder: "W", help: "A width.")
    static let fast = Flag("fast", help: "Go fast.")
    static let slow = Flag("slow", help: "Go slow.")
    static let configuration = CommandSpec(
        name: "encode", abstract: "Encode.", arguments: [input],
        options: [level, gain, codec, tags, widths, fast, slow], constraints: [.atMostOne(of: fast, slow)])

    let input: String
    let level: Int?
    let codec: Codec
    let tags: [String]
    let widths: [Int]
    let fast: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        input = arguments[Self.input]
        level = try arguments[Self.level]
        if let level, level > 9 {
            throw arguments.invalidValue(Self.level, value: String(level), expected: "a level up to 9")
        }
        codec = try arguments[Self.codec] ?? .h264
        tags = arguments[Self.tags]
        widths = try arguments[Self.widths]
        fast = arguments[Self.fast]
    }
}

private let tool = CommandLineTool(name: "tool", abstract: "A tool.", version: "tool 1", commands: [Encode.self])

private func parsed(_ line: String) -> ParsedArguments? {
    guard case .run(_, let arguments) = tool.spec.parse(line.split(separator: " ").map(String.init)) else {
        return nil
    }
    return arguments
}

private func run(_ line: String) -> CommandLineOutcome {
    tool.parse(line.split(separator: " ").map(String.init))
}

@Suite("Typed options and commands declared as types")
struct TypedOptionsTests {
    @Test func aCommandLineBecomesTheCommandsValue() throws {
        guard
            case .run(let command) = run("encode in.mov -l 3 --codec hevc -t a --tag b --width 640 --width 480 --fast")
        else {
            Issue.record("expected .run")
            return
        }
        let encode = try #require(command as? Encode)
        #expect(encode.input == "in.mov")
        #expect(encode.level == 3)
        #expect(encode.codec == .hevc)
        #expect(encode.tags == ["a", "b"])
        #expect(encode.widths == [640, 480])
        #expect(encode.fast)
    }

    @Test func absentOptionsReadAsNilEmptyAndFalse() throws {
        guard case .run(let command) = run("encode in.mov") else {
            Issue.record("expected .run")
            return
        }
        let encode = try #require(command as? Encode)
        #expect(
            encode.level == nil && encode.codec == .h264 && encode.tags == [] && encode.widths == [] && !encode.fast)
    }

    @Test func theDeclarationIsTheHelp() throws {
        let spec = tool.spec.command(named: "encode")
        #expect(spec == Encode.configuration)
        #expect(Encode.codec.spec == OptionSpec.value("codec", help: "The codec.", choices: ["h264", "hevc"]))
        #expect(
            tool.spec.usage(of: Encode.configuration)
                == "tool encode IN [-l N] [--gain VALUE] [--codec h264|hevc] [-t TAG]...\n"
                + "                   [--width W]... [--fast | --slow]")
    }

    @Test func conversionsFailWithTheUsualUsageError() {
        func message(_ line: String) -> String? {
            guard case .respond(let response) = run(line), response.exitCode == 2 else { return nil }
            return response.standardError.split(separator: "\n").first.map(String.init)
        }
        #expect(message("encode in.mov -l x") == "tool: error: invalid value 'x' for '-l': expected an integer")
        #expect(
            message("encode in.mov --level=1.5")
                == "tool: error: invalid value '1.5' for '--level': expected an integer")
        #expect(message("encode in.mov -l 12") == "tool: error: invalid value '12' for '-l': expected a level up to 9")
        #expect(
            message("encode in.mov --width 1 --width w")
                == "tool: error: invalid value 'w' for '--width': expected an integer")
        #expect(
            message("encode in.mov --codec vp9")
                == "tool: error: invalid value 'vp9' for '--codec': expected one of h264, hevc")
        // The parser's own mistakes come first, the command's checks after them.
        #expect(
            message("encode in.mov -l x --fast --slow")
                == "tool: error: options '--fast' and '--slow' cannot be used together")
    }

    @Test func theArgumentValueTypesReadWhatTheyPromise() {
        #expect(Double(argument: "1e3") == 1000)
        #expect(Double(argument: "inf") == nil && Double(argument: "nan") == nil && Double(argument: "") == nil)
        #expect(Int(argument: "+7") == 7 && Int(argument: "007") == 7 && Int(argument: "1.0") == nil)
        #expect(String(argument: "") == "")
        #expect(Encode.Codec(argument: "hevc") == .hevc && Encode.Codec(argument: "HEVC") == nil)
        #expect(Encode.Codec.expectedArgument == "one of h264, hevc")
    }

    @Test func requiredTextAndSpellingAreReadThroughTheDeclaration() throws {
        let arguments = try #require(parsed("encode in.mov -l3"))
        #expect(try arguments.required(Encode.level) == 3)
        #expect(arguments.text(of: Encode.level) == "3")
        #expect(arguments.spelling(of: Encode.level) == "-l")
        #expect(arguments.spelling(of: Encode.gain) == "--gain")
        #expect(throws: UsageError(.missingOption("--gain"), toolName: "tool", commandName: "encode")) {
            try arguments.required(Encode.gain)
        }
    }

    @Test func readingAnOptionTheCommandDoesNotDeclareStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let other = Flag("fast", help: "Another declaration with the same name.")
            let arguments = try #require(parsed("encode in.mov --fast"))
            _ = arguments[other]
        }
    }
}
