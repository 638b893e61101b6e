import Testing

@testable import CommandLineKit
@testable import PlayctlBench
@testable import PlayctlCLI

@Suite("Help and version")
struct HelpTests {
    let spec = PlayctlCommands.spec

    @Test func toolHelpFromEveryEntryPoint() throws {
        let expected = spec.helpText()
        for line in ["--help", "-h", "help", "help help", "--help frame"] {
            #expect(try helpText(line) == expected, "\(line)")
        }
        #expect(expected.contains("USAGE: playctl <command> [options] [arguments]"))
        for command in spec.commands {
            #expect(expected.contains("  \(command.name) "), "command list mentions \(command.name)")
        }
    }

    @Test(arguments: [
        ("playctl", "probe"), ("playctl", "frames"), ("playctl", "frame"), ("playctl", "play"), ("playctl", "feed"),
        ("playctl", "soak"), ("playctl-bench", "run"),
    ])
    func commandHelpFromEveryEntryPoint(tool: String, name: String) throws {
        let spec = tool == "playctl" ? self.spec : PlayctlBenchCommands.spec
        let command = try #require(spec.command(named: name))
        let expected = spec.helpText(for: command)
        for line in ["\(name) --help", "\(name) -h", "help \(name)", "\(name) clip.mp4 --bogus --help"] {
            #expect(try helpText(line, spec: spec) == expected, "\(line)")
        }
        #expect(expected.hasPrefix("OVERVIEW: "))
        #expect(expected.contains("USAGE: \(tool) \(name)"))
        #expect(expected.contains("-h, --help"))
        for option in command.options {
            #expect(expected.contains(option.helpLabel), "\(name) help lists \(option.helpLabel)")
        }
    }

    @Test func usageLinesMatchTheDeclarations() throws {
        /// The usage line, with the wrapping help applies undone.
        func usage(_ name: String, spec: ToolSpec = PlayctlCommands.spec) throws -> String {
            spec.usage(of: try #require(spec.command(named: name)))
                .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        }
        let cache =
            "[--cache-dir DIR] [--cache-size BYTES] [--max-bitrate BPS] [--max-resolution WxH] [--decryption-key HEX]"
        #expect(try usage("probe") == "playctl probe FILE [--json] \(cache)")
        #expect(try usage("frames") == "playctl frames FILE (--md5 | --count) [--json] \(cache)")
        #expect(try usage("frame") == "playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe] \(cache)")
        #expect(
            try usage("run", spec: PlayctlBenchCommands.spec)
                == "playctl-bench run [--file FILE] [--runs N] [--playback | --network | --dwell | --abr | --posters "
                + "| --thumbnails | --scrub | --feed] [--abr-seconds S] [--sweep] [--swipes N] "
                + "[--waste-swipes N] [--soak-swipes N] [--seed N] [--parts LIST] [--budgets LIST] [--video-costs LIST] "
                + "[--inactive-kib LIST] [--json]")
        let play = try usage("play")
        #expect(
            play.hasPrefix(
                "playctl play FILE [--rate R] [--time-pitch ALGORITHM] [--seek SEC[@AT]]... "
                    + "[--scrub FROM-TO@AT/DURATION | --untimed] [--until SEC]"
            ))
        #expect(play.contains("[--swap-mode source|item]"))
        #expect(
            play.hasSuffix(
                "[--metrics-out FILE] [--timeline OUT.svg] [--cache-dir DIR] [--cache-size BYTES] "
                    + "[--header 'NAME: VALUE']... [--max-bitrate BPS] [--max-resolution WxH] [--decryption-key HEX]"))
        #expect(
            try usage("feed")
                == "playctl feed MANIFEST [--swipes N | --script FILE] [--dwell SEC] [--seed S] "
                + "[--network unconstrained|cellular|constrained] [--pool N] [--estimate BPS] [--grid CxR] [--timeline OUT.svg] "
                + "[--json] [--no-audio] [--no-posters] [--cache-dir DIR] [--cache-size BYTES] "
                + "[--header 'NAME: VALUE']...")
    }

    @Test func usageShowsOptionalVariadicAndAtMostOne() throws {
        let concat = try #require(sampleTool.command(named: "concat"))
        // Too long for 80 columns after "USAGE: ", so it wraps under the first argument.
        #expect(
            sampleTool.usage(of: concat) == """
                tool concat OUT [IN...] [-t TAG]... [--codec h264|hevc]...
                                   [--fast | --slow] [--level VALUE]
                """)
        let show = try #require(sampleTool.command(named: "show"))
        #expect(sampleTool.usage(of: show) == "tool show FILE [PAGE]")
    }

    @Test func longUsageLinesWrapUnderTheFirstArgument() throws {
        let help = try helpText("play --help")
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("USAGE: playctl play FILE") })
        let indent = String(repeating: " ", count: "USAGE: playctl play ".count)
        #expect(lines[start + 1].hasPrefix(indent + "["))
        for line in lines {
            #expect(line.count <= 80 || line.contains("$ playctl"), "line too long: \(line)")
        }
    }

    @Test func optionsAreAlignedInOneColumn() throws {
        let help = try helpText("frame --help")
        #expect(
            help.contains(
                """
                OPTIONS:
                  --at SECONDS          The presentation time of the frame, in seconds.
                  --md5                 Print the md5 of the decoded frame.
                  -o, --output OUT.png  Write the frame as a PNG file to this path.
                """))
        #expect(help.contains("  -h, --help            Show help for this command."))
    }

    @Test func examplesAreListed() throws {
        let help = try helpText("help frame")
        #expect(help.contains("EXAMPLES:"))
        #expect(help.contains("$ playctl frame clip.mp4 --at 2.5 --md5"))
    }

    @Test func helpAfterDoubleDashIsAPositional() throws {
        let arguments = try parsedArguments("probe -- --help")
        #expect(arguments.positional(0) == "--help")
    }

    @Test func helpAndVersionResponsesGoToStandardOutput() throws {
        let help = try #require(parse("help").immediateResponse)
        #expect(help.exitCode == 0)
        #expect(help.standardError == "")
        #expect(help.standardOutput == spec.helpText())
        #expect(help.standardOutput.hasSuffix("\n"))
        let version = try #require(parse("--version").immediateResponse)
        #expect(version == ImmediateResponse(standardOutput: "playctl 0.1.0\n", standardError: "", exitCode: 0))
        #expect(parse("probe x").immediateResponse == nil)
    }
}
