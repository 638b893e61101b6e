/// Compact JSON text for `JSONValue`: no spaces, object keys in insertion order, one line whatever the contents.
///
/// - Strings: `"` and `\` are escaped, newline, carriage return, tab, backspace and form feed use their short
///   escapes (`\n`, `\r`, `\t`, `\b`, `\f`), other control characters below U+0020 use `\u00XX` with lower-case hex.
///   Everything else, including non-ASCII text and emoji, passes through as UTF-8.
/// - Doubles: NaN and infinities print as `null`. Below 1e9 in magnitude a double is rounded to six decimals and
///   printed with trailing zeros trimmed but at least one decimal (`1.5`, `2.0`, `0.333333`, `-0.000001`): the text
///   is within 5e-7 of the value, reads back within 1e-6, and reads back as a double; a value that rounds to zero
///   prints `0.0`, never `-0.0`.
///   From 1e9 up it prints in Swift's shortest round-trip form (`1234567890.5`, `1e+20`).
/// - Integers print as plain digits (`2`).
extension JSONValue {
    /// The value as compact JSON text.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        appendSerialized(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value's compact JSON text, as UTF-8, to `bytes`.
    public func appendSerialized(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes += "null".utf8
        case .bool(let value):
            bytes += (value ? "true" : "false").utf8
        case .int(let value):
            bytes += String(value).utf8
        case .double(let value):
            Self.appendNumber(value, to: &bytes)
        case .string(let value):
            Self.appendString(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.appendSerialized(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.appendSerialized(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    // MARK: Strings

    /// Appends `text` as a quoted, escaped JSON string.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = text.utf8
        if !utf8.contains(where: needsEscape) {
            bytes += utf8
        } else {
            for byte in utf8 {
                guard needsEscape(byte) else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes += "u00".utf8
                    bytes.append(hexDigit(byte >> 4))
                    bytes.append(hexDigit(byte & 0x0F))
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    // MARK: Numbers

    /// Magnitudes from here up print in shortest round-trip form instead of six fixed decimals.
    static let fixedNotationLimit = 1e9

    /// Appends a double as described in the type's documentation.
    static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes += "null".utf8
            return
        }
        let magnitude = value.magnitude
        guard magnitude < fixedNotationLimit else {
            bytes += value.description.utf8
            return
        }
        // Split exactly: below 1e9 the whole part fits an integer and `magnitude - wholePart` is exact, so rounding
        // the fraction to millionths (with a carry when it rounds up to a whole one) is the only loss that matters.
        let wholePart = magnitude.rounded(.towardZero)
        var whole = UInt64(wholePart)
        var fraction = UInt64(((magnitude - wholePart) * 1_000_000).rounded())
        if fraction == 1_000_000 {
            whole += 1
            fraction = 0
        }
        if value < 0 && (whole > 0 || fraction > 0) { bytes.append(UInt8(ascii: "-")) }
        bytes += String(whole).utf8
        bytes.append(UInt8(ascii: "."))
        var digits: [UInt8] = []
        for _ in 0..<6 {
            digits.append(UInt8(ascii: "0") + UInt8(fraction % 10))
            fraction /= 10
        }
        // `digits` holds the six decimals from last to first; drop trailing zeros but keep one digit.
        var first = 0
        while first < 5 && digits[first] == UInt8(ascii: "0") { first += 1 }
        bytes += digits[first...].reversed()
    }
}
