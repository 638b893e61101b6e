import PlayctlOutput

/// Why a text is not JSON, and where: `offset` counts UTF-8 bytes from the start of the text.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset at which parsing stopped.
    var offset: Int
    /// What was wrong there.
    var reason: String

    /// Creates an error.
    init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `reason at byte N`.
    var description: String { "\(reason) at byte \(offset)" }
}

/// Reading JSON back into `JSONValue`, for tests of what playctl writes: a strict RFC 8259 reader that keeps object
/// members in their order, which the tests check and Foundation's `JSONSerialization` does not keep. Test support
/// only: the product reads JSON with Foundation.
extension JSONValue {
    /// The deepest nesting of arrays and objects the parser accepts, which bounds its recursion.
    static let maximumParseDepth = 256

    /// Parses one JSON text (RFC 8259), with surrounding whitespace allowed.
    ///
    /// Numbers without fraction or exponent that fit `Int` become `.int`, other numbers `.double` (a number too large
    /// for `Double` becomes an infinity). Object members keep their order, duplicates included. Strings must not
    /// contain raw control characters; `\u` escapes must form valid scalars (surrogates in pairs).
    /// - Throws: `JSONParseError` for anything else, including nesting deeper than `maximumParseDepth`.
    init(parsing text: String) throws(JSONParseError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }

    /// Parses JSON Lines: one JSON text per line; blank lines (and a final newline) are skipped.
    /// - Throws: `JSONParseError` for the first bad line, with `offset` counted from the start of `text`.
    static func parseLines(_ text: String) throws(JSONParseError) -> [JSONValue] {
        var values: [JSONValue] = []
        var lineStart = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { lineStart += line.count + 1 }
            guard line.contains(where: { !JSONParser.isWhitespace($0) }) else { continue }
            var parser = JSONParser(bytes: Array(line))
            do {
                values.append(try parser.parseDocument())
            } catch {
                throw JSONParseError(offset: lineStart + error.offset, reason: error.reason)
            }
        }
        return values
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes, recursion bounded by `JSONValue.maximumParseDepth`.
struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw fail("unexpected text after the value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw fail("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in word.utf8 {
            guard peek() == expected else { throw fail("invalid literal, expected \(word)") }
            index += 1
        }
        return value
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw fail("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string key in object") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after object key") }
            index += 1
            members.append((key, try parseValue()))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw fail("expected ',' or '}' in object")
            }
        }
    }

    /// Consumes the opening bracket and counts the nesting level.
    private mutating func enterContainer() throws(JSONParseError) {
        guard depth < JSONValue.maximumParseDepth else {
            throw fail("nesting deeper than \(JSONValue.maximumParseDepth) levels")
        }
        depth += 1
        index += 1
    }

    // MARK: Helpers

    func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    mutating func skipWhitespace() {
        while let byte = peek(), Self.isWhitespace(byte) { index += 1 }
    }

    func fail(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }
}
