/// Renders help text for a tool and its commands: usage line, overview, arguments, options, examples.
///
/// Sections are aligned in two columns and wrapped to `width` columns, like:
///
///     OVERVIEW: Decode the frame shown at one time and print its md5 or save it as PNG.
///
///     USAGE: playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]
struct HelpFormatter {
    /// The total width help text is wrapped to.
    var width = 80
    /// Labels longer than this put their help text on the next line.
    var maximumLabelWidth = 28

    // MARK: Usage lines

    /// `playctl frame FILE --at SECONDS (--md5 | -o OUT.png) [--keyframe]`, wrapped with a hanging indent.
    func usage(of command: CommandSpec, toolName: String) -> String {
        let head = toolName + " " + command.name
        let words = command.arguments.map(\.usageFragment) + optionFragments(command)
        guard !words.isEmpty else { return head }
        return wrapWords(
            words, firstLinePrefix: head + " ", firstLineOffset: "USAGE: ".count,
            continuationIndent: "USAGE: ".count + head.count + 1)
    }

    /// The options part of a usage line: required options plain, optional ones in brackets, repeatable ones
    /// followed by `...`, and the members of `exactlyOne` and `atMostOne` constraints grouped as `(a | b)` and
    /// `[a | b]` where the group's first member is declared.
    func optionFragments(_ command: CommandSpec) -> [String] {
        var grouped: [String: (fragment: String, isFirst: Bool)] = [:]
        for constraint in command.constraints {
            let members: [String]
            let open: String
            let close: String
            switch constraint {
            case .exactlyOne(let names): (members, open, close) = (names, "(", ")")
            case .atMostOne(let names): (members, open, close) = (names, "[", "]")
            case .requires: continue
            }
            let options = members.compactMap(command.option(named:))
            guard options.count > 1, options.allSatisfy({ grouped[$0.name] == nil }) else { continue }
            let fragment = open + options.map(\.usageFragment).joined(separator: " | ") + close
            for (position, option) in options.enumerated() {
                grouped[option.name] = (fragment, position == 0)
            }
        }
        var fragments: [String] = []
        for option in command.options {
            if let group = grouped[option.name] {
                if group.isFirst { fragments.append(group.fragment) }
                continue
            }
            switch (option.kind, option.isRequired) {
            case (.repeatable, _): fragments.append("[" + option.usageFragment + "]...")
            case (_, true): fragments.append(option.usageFragment)
            case (_, false): fragments.append("[" + option.usageFragment + "]")
            }
        }
        return fragments
    }

    // MARK: Whole help texts

    /// Help for one command.
    func help(for command: CommandSpec, toolName: String) -> String {
        var sections: [String] = []
        sections.append(wrap("OVERVIEW: " + command.abstract, indent: 0, hangingIndent: "OVERVIEW: ".count))
        if !command.discussion.isEmpty {
            sections.append(paragraphs(command.discussion))
        }
        sections.append("USAGE: " + usage(of: command, toolName: toolName))
        if !command.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + table(command.arguments.map { ($0.name, $0.help) }))
        }
        var rows = command.options.map { ($0.helpLabel, $0.help) }
        rows.append(("-h, --help", "Show help for this command."))
        sections.append("OPTIONS:\n" + table(rows))
        if !command.examples.isEmpty {
            let lines = command.examples.map { example in
                wrap(example.explanation, indent: 2) + "\n" + "    $ " + example.commandLine
            }
            sections.append("EXAMPLES:\n" + lines.joined(separator: "\n\n"))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// Help for the whole tool: overview, usage, the command list and the global options.
    func help(for tool: ToolSpec) -> String {
        var sections: [String] = []
        sections.append(wrap("OVERVIEW: " + tool.abstract, indent: 0, hangingIndent: "OVERVIEW: ".count))
        if !tool.discussion.isEmpty {
            sections.append(paragraphs(tool.discussion))
        }
        sections.append("USAGE: \(tool.name) <command> [options] [arguments]")
        sections.append("COMMANDS:\n" + table(tool.commands.map { ($0.name, $0.abstract) }))
        sections.append(
            "OPTIONS:\n"
                + table([("-h, --help", "Show this help."), ("--version", "Show the version of \(tool.name).")]))
        sections.append("See '\(tool.name) help <command>' or '\(tool.name) <command> --help' for a command's help.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    // MARK: Layout

    /// Two aligned columns indented by two spaces; long labels put their text on the next line.
    func table(_ rows: [(label: String, text: String)]) -> String {
        let labelWidth = min(maximumLabelWidth, rows.map(\.label.count).max() ?? 0)
        let textColumn = 2 + labelWidth + 2
        return rows.map { row in
            let text = wrap(row.text, indent: textColumn)
            let label = "  " + row.label
            if row.label.count > labelWidth || row.text.isEmpty {
                return row.text.isEmpty ? label : label + "\n" + text
            }
            let padding = String(repeating: " ", count: textColumn - label.count)
            return label + padding + text.dropFirst(textColumn)
        }.joined(separator: "\n")
    }

    /// Paragraphs separated by blank lines, each wrapped to the width.
    func paragraphs(_ text: String) -> String {
        text.split(separator: "\n\n", omittingEmptySubsequences: true)
            .map { wrap(String($0), indent: 0) }
            .joined(separator: "\n\n")
    }

    /// Word-wraps `text`: the first line indented by `indent` spaces, later lines by `hangingIndent` (default
    /// `indent`). A word longer than a line stays whole.
    func wrap(_ text: String, indent: Int, hangingIndent: Int? = nil) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        return wrapWords(
            words, firstLinePrefix: String(repeating: " ", count: indent), firstLineOffset: 0,
            continuationIndent: hangingIndent ?? indent)
    }

    /// Lays words out greedily. The first line starts with `firstLinePrefix`, printed after `firstLineOffset`
    /// columns the caller prints itself; later lines start with `continuationIndent` spaces.
    private func wrapWords(
        _ words: [String], firstLinePrefix: String, firstLineOffset: Int, continuationIndent: Int
    ) -> String {
        var lines: [String] = []
        var line = firstLinePrefix
        var lineWidth = firstLineOffset + firstLinePrefix.count
        var lineHasWord = false
        for word in words {
            if lineHasWord && lineWidth + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: continuationIndent)
                lineWidth = continuationIndent
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += word.count
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
