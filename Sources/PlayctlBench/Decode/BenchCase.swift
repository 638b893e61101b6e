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
