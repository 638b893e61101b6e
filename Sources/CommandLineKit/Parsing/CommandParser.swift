/// Reads the arguments that follow a command's name into `ParsedArguments`, or fails with the first mistake.
///
/// Rules:
/// - `--name`, `--name=value`, `--name value`; `-x`, `-x value`, `-x=value`, `-xvalue`.
/// - A valued option takes the next argument as its value unless that argument looks like an option; a lone `-`
///   and negative numbers (`-1.5`) are values, so `--at -1` reaches the command's own validation.
/// - `--` ends options: everything after it is positional.
/// - Any other argument, including `-` and negative numbers, is positional.
///
/// The parser is a single loop over the arguments: no recursion, and every index is checked.
struct CommandParser {
    let command: CommandSpec
    let toolName: String

    /// Parses `arguments`, which exclude the tool and command names. `-h`/`--help` are handled by the caller.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command, toolName: toolName)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(token) {
                parsed.appendPositional(token)
            } else if token == "--" {
                optionsEnded = true
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = body.prefix { $0 != "=" }
                let inline = name.endIndex < body.endIndex ? String(body[body.index(after: name.endIndex)...]) : nil
                guard let option = command.option(long: name) else {
                    throw unknownOption(name.isEmpty ? token : "--" + name)
                }
                try take(option, spelling: "--" + name, inline: inline, arguments, &index, into: &parsed)
            } else {
                let body = token.dropFirst()
                guard let letter = body.first, let option = command.option(short: letter) else {
                    throw unknownOption(token)
                }
                let rest = body.dropFirst()
                let spelling = "-" + String(letter)
                if option.kind == .flag && !rest.isEmpty {
                    guard rest.first == "=" else { throw unknownOption(token) }
                    throw error(.unexpectedValue(option: spelling, value: String(rest.dropFirst())))
                }
                let inline = rest.isEmpty ? nil : String(rest.first == "=" ? rest.dropFirst() : rest)
                try take(option, spelling: spelling, inline: inline, arguments, &index, into: &parsed)
            }
        }
        try checkPositionals(parsed.positionals)
        try checkRequiredOptions(parsed)
        try checkConstraints(parsed)
        return parsed
    }

    /// Whether an argument is read as an option: it starts with `-`, is not a lone `-`, and is not a number.
    static func looksLikeOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        return !isNegativeNumber(token)
    }

    /// `-1`, `-0.5`, `-.5`, `-1e3`: a dash followed by a digit, or by a dot and a digit.
    static func isNegativeNumber(_ token: String) -> Bool {
        let body = token.dropFirst()
        guard let first = body.first else { return false }
        if first.isASCII && first.isNumber { return true }
        if first == ".", let second = body.dropFirst().first, second.isASCII, second.isNumber { return true }
        return false
    }

    // MARK: Options

    private func take(
        _ option: OptionSpec, spelling: String, inline: String?, _ arguments: [String], _ index: inout Int,
        into parsed: inout ParsedArguments
    ) throws(UsageError) {
        guard option.takesValue else {
            if let inline { throw error(.unexpectedValue(option: spelling, value: inline)) }
            parsed.setFlag(option, spelling: spelling)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if index < arguments.count, !Self.looksLikeOption(arguments[index]) {
            value = arguments[index]
            index += 1
        } else {
            throw error(.missingValue(option: spelling))
        }
        if option.kind == .value && parsed.isPresent(option.name) {
            throw error(.duplicateOption(spelling))
        }
        if !option.choices.isEmpty && !option.choices.contains(value) {
            throw error(
                .invalidValue(
                    option: spelling, value: value, expected: ParsedArguments.describeChoices(option.choices)))
        }
        parsed.appendValue(value, for: option, spelling: spelling)
    }

    private func unknownOption(_ spelling: String) -> UsageError {
        var candidates = command.options.map(\.longSpelling)
        candidates.append("--help")
        return error(.unknownOption(spelling, suggestion: Suggestions.closest(to: spelling, among: candidates)))
    }

    // MARK: Checks after reading

    private func checkPositionals(_ values: [String]) throws(UsageError) {
        var remaining = values[...]
        for positional in command.arguments {
            switch positional.arity {
            case .required:
                guard remaining.popFirst() != nil else { throw error(.missingArgument(positional.name)) }
            case .optional:
                _ = remaining.popFirst()
            case .variadic:
                remaining.removeAll()
            }
        }
        if let extra = remaining.first {
            throw error(.unexpectedArgument(extra))
        }
    }

    private func checkRequiredOptions(_ parsed: ParsedArguments) throws(UsageError) {
        for option in command.options where option.isRequired && !parsed.isPresent(option.name) {
            throw error(.missingOption(option.preferredSpelling))
        }
    }

    private func checkConstraints(_ parsed: ParsedArguments) throws(UsageError) {
        for constraint in command.constraints {
            switch constraint {
            case .exactlyOne(let names):
                let given = names.filter { parsed.flag($0) }
                if given.isEmpty {
                    throw error(.missingOneOf(names.map(preferredSpelling)))
                }
                if given.count > 1 { throw error(.mutuallyExclusive(given.map(parsed.spelling(of:)))) }
            case .atMostOne(let names):
                let given = names.filter { parsed.flag($0) }
                if given.count > 1 { throw error(.mutuallyExclusive(given.map(parsed.spelling(of:)))) }
            case .requires(let option, let other):
                if parsed.flag(option) && !parsed.flag(other) {
                    let spelling = parsed.spelling(of: option)
                    throw error(.missingDependency(option: spelling, requires: preferredSpelling(other)))
                }
            }
        }
    }

    private func preferredSpelling(_ name: String) -> String {
        command.option(named: name)?.preferredSpelling ?? "--" + name
    }

    private func error(_ kind: UsageError.Kind) -> UsageError {
        UsageError(kind, toolName: toolName, commandName: command.name)
    }
}
