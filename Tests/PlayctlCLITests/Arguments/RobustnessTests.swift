import PlaybackTesting
import Testing

@testable import CommandLineKit
@testable import PlayctlCLI

@Suite("Robustness: any input parses to an outcome")
struct RobustnessTests {
    /// Tokens that stress the parser: every declared spelling, near-misses, separators, odd characters.
    static let tokens: [String] = {
        var tokens = [
            "", "-", "--", "---", "=", "-=", "--=", "--=x", "-h", "--help", "help", "--version", "-1",
            "-.5", "-.", "1e999", "nan", "clip.mp4", "a=b", "\n", "\u{0}", "é", "🎬", "--🎬", "-🎬",
            "--json=", "-o=", "-oo", "-hx", "--at=--md5", String(repeating: "x", count: 300),
        ]
        for command in PlayctlCommands.spec.commands {
            tokens.append(command.name)
            for option in command.options {
                tokens += [
                    option.longSpelling, option.longSpelling + "=1", option.longSpelling + "=",
                    String(option.longSpelling.dropLast()),
                ]
                if let short = option.shortSpelling { tokens += [short, short + "v", short + "=v"] }
                tokens += option.choices
            }
        }
        return tokens
    }()

    /// Checks what every outcome must satisfy, whatever the input.
    private func checkInvariants(_ argv: [String], _ outcome: ParseOutcome) {
        switch outcome {
        case .run(let command, let arguments):
            #expect(argv.first == command.name)
            #expect(arguments.positionals.count <= argv.count)
            #expect(!argv.isEmpty)
        case .help(let text):
            #expect(text.hasPrefix("OVERVIEW: "))
        case .version(let text):
            #expect(text == PlayctlCommands.version)
        case .usageError(let error):
            let lines = error.diagnosticLines
            #expect(lines.count == 2)
            #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") }, "\(lines)")
            #expect(lines[0].hasPrefix("playctl: error: "))
            #expect(lines[1].hasPrefix("see 'playctl "))
            #expect(lines[0].count < 600, "messages stay short: \(lines[0].count)")
        }
        if case .run = outcome {
            #expect(outcome.immediateResponse == nil)
        } else {
            #expect(outcome.immediateResponse != nil)
        }
    }

    @Test func randomCommandLines() {
        var random = SplitMix64(seed: 0x5EED)
        let names = PlayctlCommands.spec.commands.map(\.name)
        for _ in 0..<20_000 {
            var argv: [String] = []
            if Bool.random(using: &random) { argv.append(names.randomElement(using: &random) ?? "probe") }
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                argv.append(Self.tokens.randomElement(using: &random) ?? "")
            }
            checkInvariants(argv, PlayctlCommands.spec.parse(argv))
        }
    }

    @Test func randomCharacterSoup() {
        var random = SplitMix64(seed: 42)
        let alphabet = Array("-=@.0123456789abcdefhjmos5 \t\n\u{0}é🎬")
        for _ in 0..<20_000 {
            var argv: [String] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let length = Int.random(in: 0...8, using: &random)
                argv.append(String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "-" }))
            }
            checkInvariants(argv, PlayctlCommands.spec.parse(argv))
        }
    }

    @Test func controlCharactersAreEscapedAndLongTokensShortened() throws {
        let error = try #require(
            { () -> UsageError? in
                if case .usageError(let error) = PlayctlCommands.spec.parse(["probe", "a", "b\nc\u{1}"]) {
                    return error
                }
                return nil
            }())
        #expect(error.message == #"unexpected argument 'b\nc\u{1}'"#)
        let long = String(repeating: "y", count: 1_000_000)
        guard case .usageError(let longError) = PlayctlCommands.spec.parse([long]) else {
            Issue.record("expected a usage error")
            return
        }
        #expect(longError.message == "unknown command '" + String(repeating: "y", count: 100) + "...'")
    }

    @Test func hugeArgumentListsParseInLinearTime() throws {
        let seeks = Array(repeating: ["--seek", "1@2"], count: 50_000).flatMap { $0 }
        let arguments = try #require(
            { () -> ParsedArguments? in
                if case .run(_, let arguments) = PlayctlCommands.spec.parse(["play", "a.mp4"] + seeks) {
                    return arguments
                }
                return nil
            }())
        #expect(arguments.values("seek").count == 50_000)
        let files = Array(repeating: "f", count: 100_000)
        guard case .usageError(let error) = PlayctlCommands.spec.parse(["probe"] + files) else {
            Issue.record("expected a usage error")
            return
        }
        #expect(error.kind == .unexpectedArgument("f"))
    }
}
