/// A mistake in the command line: what went wrong, and for which command.
///
/// The executable reports it with `diagnosticLines` on standard error and exits with `UsageError.exitCode`:
///
///     playctl: error: unknown command 'frmae' (did you mean 'frame'?)
///     see 'playctl --help'
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of mistakes. Option names are carried as spelled in messages (`--at`, `-o`).
    public enum Kind: Sendable, Equatable {
        /// No command was given (`playctl` alone).
        case missingCommand
        /// The first argument is not a command; `suggestion` is the closest command name, if any is close.
        case unknownCommand(String, suggestion: String?)
        /// An option the command does not declare; `suggestion` is the closest option spelling, if any is close.
        case unknownOption(String, suggestion: String?)
        /// A valued option came last, or was followed by another option instead of its value.
        case missingValue(option: String)
        /// A flag was given a value with `--flag=value`.
        case unexpectedValue(option: String, value: String)
        /// A single-valued option was given more than once.
        case duplicateOption(String)
        /// A required positional argument is missing; carries its name (`FILE`).
        case missingArgument(String)
        /// A positional argument that no declared positional takes.
        case unexpectedArgument(String)
        /// A required option is absent.
        case missingOption(String)
        /// A value that is not acceptable; `expected` completes "expected ..." (`a number`, `one of source, item`).
        case invalidValue(option: String, value: String, expected: String)
        /// Options that cannot be used together were given together.
        case mutuallyExclusive([String])
        /// None of the options of which exactly one is required was given.
        case missingOneOf([String])
        /// `option` was given without the option it requires.
        case missingDependency(option: String, requires: String)
    }

    /// The exit status for usage errors, following the convention of getopt-based tools.
    public static let exitCode: Int32 = 2

    /// What went wrong.
    public var kind: Kind
    /// The tool's name, used in the diagnostic prefix and the hint.
    public var toolName: String
    /// The command being parsed, or `nil` for mistakes before a command was recognised.
    public var commandName: String?

    /// Creates an error for `toolName`, optionally within `commandName`.
    public init(_ kind: Kind, toolName: String, commandName: String? = nil) {
        self.kind = kind
        self.toolName = toolName
        self.commandName = commandName
    }

    /// One line saying what went wrong, without the `tool: error:` prefix.
    public var message: String {
        switch kind {
        case .missingCommand:
            return "missing command"
        case .unknownCommand(let name, let suggestion):
            return "unknown command \(Self.quote(name))" + Self.didYouMean(suggestion)
        case .unknownOption(let spelling, let suggestion):
            return "unknown option \(Self.quote(spelling))" + Self.didYouMean(suggestion)
        case .missingValue(let option):
            return "missing value for option \(Self.quote(option))"
        case .unexpectedValue(let option, _):
            return "option \(Self.quote(option)) does not take a value"
        case .duplicateOption(let option):
            return "option \(Self.quote(option)) given more than once"
        case .missingArgument(let name):
            return "missing argument \(Self.quote(name))"
        case .unexpectedArgument(let argument):
            return "unexpected argument \(Self.quote(argument))"
        case .missingOption(let option):
            return "missing required option \(Self.quote(option))"
        case .invalidValue(let option, let value, let expected):
            return "invalid value \(Self.quote(value)) for \(Self.quote(option)): expected \(expected)"
        case .mutuallyExclusive(let options):
            return "options \(Self.list(options, conjunction: "and")) cannot be used together"
        case .missingOneOf(let options):
            return options.count == 1
                ? "missing required option \(Self.list(options, conjunction: "or"))"
                : "one of \(Self.list(options, conjunction: "or")) is required"
        case .missingDependency(let option, let required):
            return "option \(Self.quote(option)) requires \(Self.quote(required))"
        }
    }

    /// Where to look next: `see 'playctl frame --help'`, or `see 'playctl --help'` outside a command.
    public var hint: String {
        if let commandName {
            return "see '\(toolName) \(commandName) --help'"
        }
        return "see '\(toolName) --help'"
    }

    /// The exact lines to print on standard error: `<tool>: error: <message>`, then the hint.
    public var diagnosticLines: [String] {
        ["\(toolName): error: \(message)", hint]
    }

    /// `diagnosticLines` joined, each ending with a newline.
    public var diagnosticText: String {
        diagnosticLines.map { $0 + "\n" }.joined()
    }

    /// What the executable prints and returns for this error.
    public var immediateResponse: ImmediateResponse {
        ImmediateResponse(standardOutput: "", standardError: diagnosticText, exitCode: Self.exitCode)
    }

    /// The message, so that `"\(error)"` reads well.
    public var description: String { message }

    private static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean \(quote($0))?)" } ?? ""
    }

    /// Longest text quoted in full; longer text is cut and ends with `...`.
    static let maximumQuotedLength = 100

    /// `'text'`, on one line whatever the user typed: control characters are escaped (`\n`, `\u{1}`) and long
    /// text is shortened. Public so that a tool quotes text in its own diagnostics as usage errors do.
    public static func quote(_ text: String) -> String {
        var result = "'"
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumQuotedLength {
                result += "..."
                break
            }
            count += 1
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    private static func list(_ items: [String], conjunction: String) -> String {
        let quoted = items.map(quote)
        guard let last = quoted.last else { return "" }
        if quoted.count == 1 { return last }
        return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
