/// One command the benchmark times: a program and its arguments.
public struct BenchCase: Sendable {
    /// A short name for tables and JSON: `playctl`, `ffmpeg`, `mpv`.
    public var tool: String
    /// The program's path.
    public var executable: String
    /// The arguments, without the program name.
    public var arguments: [String]

    /// The command as a shell would show it, with the tool's short name first.
    public var commandLine: String {
        ([tool] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    private static func quoted(_ argument: String) -> String {
        let safe = "-_./:=,+@%"
        let plain =
            !argument.isEmpty
            && argument.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || safe.contains($0) }
        if plain { return argument }
        var quoted = "'"
        for character in argument {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }
}

extension BenchCase {
    /// The command line for a report's table: `value` (the file or URL measured) shown as `name`, and ffmpeg's
    /// quieting options (`-hide_banner -nostdin -loglevel error`, which the reports' notes mention) left out.
    func shortCommandLine(showing value: String, as name: String) -> String {
        var short = self
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-hide_banner" || argument == "-nostdin" { continue }
            if argument == "-loglevel" {
                index += 1
                continue
            }
            kept.append(argument == value ? name : argument)
        }
        short.arguments = kept
        return short.commandLine
    }
}

extension BenchCase {
    /// The first-frame commands of a URL: `playctl play U --frames 1`, `ffmpeg -i U -frames:v 1 -f null -` and,
    /// when installed, `mpv --frames=1 --vo=null --ao=null U`.
    static func firstFrame(of url: String, playctl: String, tools: BenchTools) -> [BenchCase] {
        var cases = [
            BenchCase(tool: "playctl", executable: playctl, arguments: ["play", url, "--frames", "1"]),
            BenchCase(
                tool: "ffmpeg", executable: tools.ffmpeg,
                arguments: [
                    "-hide_banner", "-nostdin", "-loglevel", "error", "-i", url, "-frames:v", "1", "-f", "null", "-",
                ]),
        ]
        if let mpv = tools.mpv {
            cases.append(
                BenchCase(
                    tool: "mpv", executable: mpv,
                    arguments: ["--no-config", "--frames=1", "--vo=null", "--ao=null", url]))
        }
        return cases
    }
}
