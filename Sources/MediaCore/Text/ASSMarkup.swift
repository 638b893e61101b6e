/// Reads the override tags of ASS dialogue text (what libavcodec's subtitle decoders produce for every text
/// format) into runs of one style. Drawing commands, positions and animations are dropped; bold (`\b`), italic
/// (`\i`), underline (`\u`), primary colour (`\c`, `\1c`), style resets (`\r`) and line breaks (`\N`, `\n`, `\h`)
/// are kept.
public enum ASSMarkup {
    /// `markup` as runs of one style, in order (adjacent runs of the same style merged).
    public static func runs(of markup: String) -> [StyledRun] {
        var runs: [StyledRun] = []
        var style = StyledRun(text: "")
        var text = ""
        func flush() {
            guard !text.isEmpty else { return }
            if var last = runs.last, last.sameStyle(as: style) {
                last.text += text
                runs[runs.count - 1] = last
            } else {
                var run = style
                run.text = text
                runs.append(run)
            }
            text = ""
        }
        var characters = markup[...]
        while let first = characters.first {
            if first == "{", let close = characters.firstIndex(of: "}") {
                let block = characters[characters.index(after: characters.startIndex)..<close]
                characters = characters[characters.index(after: close)...]
                var next = style
                apply(block, to: &next)
                if !next.sameStyle(as: style) {
                    flush()
                    style = next
                }
                continue
            }
            if first == "\\", let second = characters.dropFirst().first, "Nnh".contains(second) {
                text += second == "h" ? "\u{00A0}" : "\n"
                characters = characters.dropFirst(2)
                continue
            }
            text.append(first)
            characters = characters.dropFirst()
        }
        flush()
        return runs
    }

    /// Applies the tags of one `{...}` block.
    private static func apply(_ block: Substring, to style: inout StyledRun) {
        for tag in block.split(separator: "\\").map(trimmed) where !tag.isEmpty {
            if tag.first == "r" {
                style = StyledRun(text: "")
            } else if let value = flag(tag, "b") {
                style.isBold = value
            } else if let value = flag(tag, "i") {
                style.isItalic = value
            } else if let value = flag(tag, "u") {
                style.isUnderlined = value
            } else if tag.hasPrefix("c&") || tag.hasPrefix("1c&") {
                style.color = color(tag.drop { $0 != "&" })
            }
        }
    }

    /// `text` without spaces around it.
    private static func trimmed(_ text: Substring) -> String {
        let start = text.firstIndex { $0 != " " } ?? text.endIndex
        let end = text.lastIndex { $0 != " " }.map { text.index(after: $0) } ?? start
        return start < end ? String(text[start..<end]) : ""
    }

    /// `\b1`, `\i0`, `\u1` (and `\b700` weights): the flag's value, nil for another tag.
    private static func flag(_ tag: String, _ name: Character) -> Bool? {
        guard tag.first == name, let number = Int(tag.dropFirst()) else { return nil }
        return number != 0
    }

    /// `&HBBGGRR&` as 0xRRGGBB.
    private static func color(_ text: Substring) -> UInt32? {
        let digits = text.drop { $0 == "&" || $0 == "H" || $0 == "h" }.prefix { $0 != "&" }
        guard let bgr = UInt32(digits, radix: 16) else { return nil }
        return (bgr & 0xFF) << 16 | (bgr & 0xFF00) | (bgr >> 16 & 0xFF)
    }
}

extension StyledRun {
    /// Same style, whatever the text.
    func sameStyle(as other: StyledRun) -> Bool {
        isBold == other.isBold && isItalic == other.isItalic && isUnderlined == other.isUnderlined
            && color == other.color
    }
}
